"""A check run apart, in a child process: the learner's code can neither outlast the time limit nor
end the command with its own verdict.

`micrograd practice check` (and check-engine) runs `python -m micrograd.practice.apart` with the
exercise, the file, the seed and the language, and reads the verdict back as JSON from a file in a
folder of its own. The parent alone prints it, sets the exit status and records progress, so:
- a loop that swallows every interruption (`except: pass` around a slow body) is killed at the
  deadline, TIME_LIMIT after the check began (the child stops it MARGIN earlier, to say what ran
  too long, where it can); Ctrl-C stops the check at once;
- a learner's file that ends the process (`os._exit(0)`, a crash, a memory bomb under the
  child's memory limit) gets a named verdict, never exit status 0 and never a recorded pass;
- a verdict is taken only with the token the parent gave the child before the learner's code
  ran, and a check whose code changed the checker itself says so instead of judging
  (sandbox.Tampering).
The notebook runs checks in its own kernel (the learner's code lives there) and the site in its
Web Worker, which the page ends at its deadline; the same tampering guard runs in both.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict
from typing import Any

from micrograd.practice.result import CheckResult, Problem, Row
from micrograd.practice.sandbox import TIME_LIMIT, session
from micrograd.text import text

# the child stops the learner's code this much before the deadline, to say what ran too long; at
# the deadline (TIME_LIMIT after the check began) this process ends the child
MARGIN = 0.75
MEMORY_LIMIT = 4 << 30  # bytes of address space the child may map (a memory bomb: MemoryError)


def check(exercise_id: str, path: str, seed: int | None, lang: str) -> CheckResult:
    """`check(exercise_id, path)` (or check_engine, for the id "check-engine") run in a child
    process: its verdict, or one saying why it gave none."""
    token = secrets.token_hex(16)
    deadline = time.time() + TIME_LIMIT
    request = dict(
        exercise=exercise_id, path=path, seed=seed, lang=lang, token=token, deadline=deadline
    )
    with tempfile.TemporaryDirectory(prefix="micrograd-check-") as folder:
        verdict = os.path.join(folder, "verdict.json")
        with open(os.path.join(folder, "stderr"), "w+b") as err:
            child = subprocess.Popen(
                [sys.executable, "-m", "micrograd.practice.apart", verdict],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,  # its prints are captured for the verdict
                stderr=err,
                start_new_session=True,  # Ctrl-C reaches this process, which ends the child
            )
            try:
                child.communicate(json.dumps(request).encode(), timeout=deadline - time.time())
            except subprocess.TimeoutExpired:
                _kill(child)
                seconds = f"{TIME_LIMIT:g}"
                return _no_verdict(
                    exercise_id, seed, lang, "too-long", "practice.apart_killed", seconds=seconds
                )
            except KeyboardInterrupt:
                _kill(child)
                raise
            err.seek(0)
            said = err.read()[-4000:]
        data = b""
        if os.path.exists(verdict):
            with open(verdict, "rb") as f:
                data = f.read()
    return _verdict(exercise_id, seed, lang, token, data, child.returncode, said)


def _kill(child: subprocess.Popen[bytes]) -> None:
    """End the child and whatever it started (its own session)."""
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        child.kill()
    child.wait()


def _verdict(
    exercise_id: str, seed: int | None, lang: str, token: str, data: bytes, code: int, err: bytes
) -> CheckResult:
    """The child's verdict if it gave one with the token and then ended as it should, else one
    saying how the process ended."""
    try:
        said = json.loads(data.decode()) if data else None
    except (UnicodeDecodeError, ValueError):
        said = None
    if isinstance(said, dict) and said.get("token") == token and code == 0:
        return from_json(said["result"])
    if code == -signal.SIGKILL:  # not this process's kill: the kernel's, out of memory
        return _no_verdict(exercise_id, seed, lang, "other", "practice.apart_killed_oom")
    if code < 0:  # killed by another signal: a crash (SIGSEGV, SIGABRT, ...)
        how = signal.Signals(-code).name if -code in signal.valid_signals() else str(-code)
        return _no_verdict(exercise_id, seed, lang, "other", "practice.apart_signal", how=how)
    last = err.decode(errors="replace").strip().splitlines()[-1:]  # what it said last, if any
    said = f": {last[0][:200]}" if last else ""
    return _no_verdict(
        exercise_id, seed, lang, "other", "practice.apart_ended", code=code, said=said
    )


def _no_verdict(
    exercise_id: str, seed: int | None, lang: str, mistake: str, key: str, **fields: object
) -> CheckResult:
    result = CheckResult(exercise_id, False, seed=seed, lang=lang)
    return result.fail(Problem(mistake, text(key, lang, **fields)))


def to_json(result: CheckResult) -> dict[str, Any]:
    """A CheckResult as plain data."""
    return asdict(result)


def from_json(data: dict[str, Any]) -> CheckResult:
    """The CheckResult that to_json() wrote."""
    fields = dict(data)
    fields["rows"] = [Row(**row) for row in fields.get("rows", [])]
    fields["parts"] = [from_json(part) for part in fields.get("parts", [])]
    return CheckResult(**fields)


def main() -> None:
    """The child: read the request, limit memory, run the check, write the verdict."""
    verdict = sys.argv[1]
    request = json.loads(sys.stdin.read())
    token = request.pop("token")
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    except (ImportError, ValueError, OSError):  # not on this system: the parent's deadline holds
        pass
    from micrograd.practice.checker import check as check_one
    from micrograd.practice.checker import check_engine

    lang, seed, path = request["lang"], request["seed"], request["path"]
    with session(max(0.1, request["deadline"] - MARGIN - time.time())):  # the checks join it
        if request["exercise"] == "check-engine":
            result = check_engine(path, seed=seed, lang=lang)
        else:
            result = check_one(request["exercise"], path, seed=seed, lang=lang)
    with open(verdict, "w", encoding="utf-8") as out:
        json.dump({"token": token, "result": to_json(result)}, out)
    os._exit(0)  # nothing the learner's code left behind (threads, atexit) runs after the verdict


if __name__ == "__main__":
    main()
