"""Every sentence micrograd shows a person, in English: key -> template (str.format fields).

One catalog per language (zh.py is the other, with the same keys and fields: tests/test_text.py),
read by micrograd.text.text(). Keys are grouped by who says them: the engine's warnings and the
teaching tools (explain, the stepper, the drawings) use plain keys; the command's help and lines
start with "cli.", the pictures' with "plot.", practice mode's with "practice." and "exercise."."""

CATALOG: dict[str, str] = {
    "order": "1. topological order (inputs first): [{order}]",
    "start": "2. start: {root}.grad = 1 (∂{root}/∂{root})",
    "walk": "3. walk the order backwards; each node adds local derivative * its grad to its inputs:",
    "step": "   {node} = {formula}, grad {grad}: {node}._backward()",
    "add": "      {input}.grad += {how} = {added}  -> {total}{why}",
    "repeated": "   (+=: {input} is used more than once; contributions add up)",
    "custom": "(custom _backward)",
    "forgotten": "      {input}.grad += 0  -> {total}   (made by hand, Value(..., (inputs), op), "
    "with no _backward set: it passes nothing back)",
    "overwrote": "      {input}.grad = {total}   (custom _backward: it set the grad with = "
    "instead of adding with +=; what came before is lost)",
    "user": "user code",
    "sequence_order": "topological order",
    "sequence_step": "{node}._backward()  (grad {grad})",
    "legend": "colours",
    "leaf": "input or constant",
    "param": "parameter",
    "output": "output",
    "inner": "computed",
    "operands": "0, 1 on an edge: the op's first and second operand",
    # micrograd explain / graph: the errors of an expression and of --set (micrograd.teach.expr)
    "expr_too_long": "expression longer than {limit} characters",
    "expr_syntax": "not a valid expression: {why}",
    "expr_syntax_wide": "not a valid expression: {why} (type symbols in half-width ASCII)",
    # the {why} of expr_syntax: Python's parser's common reasons, in its words
    "expr_parser_unclosed": "'{bracket}' was never closed",
    "expr_parser_unmatched": "unmatched '{bracket}'",
    "expr_parser_mismatch": "closing '{closing}' does not match opening '{opening}'",
    "expr_parser_invalid": "invalid syntax",
    "expr_parser_eof": "the expression ends before it is complete",
    "expr_empty": "empty expression",
    "expr_bool": "{value} is not allowed in an expression",
    "expr_unknown_name": "unknown name '{name}': give it a value with --set {name}=1.0",
    "expr_call": "only these functions can be called, with one argument: {functions}",
    "expr_not_allowed": "{kind} is not allowed in an expression: {text}",
    "wrote": "wrote {path}",
    "wrote_page": "wrote {path}: open it in a browser",
    "nan_output": "the output is nan: a forward op made it (such as a negative number to a "
    "fractional power); run the forward inside micrograd.detect_anomaly() to find which",
    "expr_instead": "'{typed}' is not in the language: write {instead} instead",
    "expr_method": "write {name}(a), not a.{name}(): functions are called by name",
    "expr_times": "write the multiplication: {number}*{name}, not {number}{name}",
    "expr_operator": "the operator {op} is not in the language: use + - * / **",
    "expr_twice": "'{name}' is given a value twice",
    "expr_statement": "only `name = expression` statements, and a last expression: {text}",
    "expr_deep": "expression nested too deeply",
    "expr_cannot": "cannot evaluate: {why}",
    "set_form": "--set expects NAME=NUMBER, got {item}",
    "set_keyword": "--set {name}: '{name}' is a keyword, which cannot be a name",
    "set_twice": "--set {name} is given twice",
    "set_nan": "--set {name}: {number} is not a number",
    "set_inf": "--set {name}: {number} is not a finite number",
    # the command line of explain and graph (micrograd.app.cli)
    "error": "micrograd: error: {message}",
    "no_backward": "a Value made by hand with op {op!r} and inputs has no _backward: its "
    "inputs get nothing from it (set out._backward = _backward, the closure of its local "
    "derivatives, as the lecture does)",
    "nan_backward": "backward() of a nan: a forward op made it (such as a negative number to "
    "a fractional power); run the forward inside micrograd.detect_anomaly() to find which",
    "unknown_format": "unknown format '{fmt}' (from -o's extension): give --format, one of {formats}",
    "png_tty": "--format png writes binary data: give a file with -o FILE",
    "no_dot": "--format {fmt} needs Graphviz's 'dot' program, which is not installed: "
    "apt-get install graphviz (Debian/Ubuntu), brew install graphviz (macOS), "
    "or https://graphviz.org/download/; --format dot and --format mermaid need nothing",
    "help_expr": "e.g. 'relu(a*b + c)': names, numbers, + - * / **, ( ), {functions}; "
    "or statements 'c = a + b; d = c * a'",
    "help_set": "a value for a name (repeat)",
    "help_lang": "language of the text: en or zh (default: from LANG, zh_* is Chinese)",
    "help_max_nodes": "refuse graphs larger than this (default: %(default)s)",
    "help_graph": "draw the graph of an expression after backward",
    "about_graph": "Draw the graph of an expression, with each Value's data and grad.",
    "help_format": "default: from -o's extension, else dot",
    "help_output": "write to this file; - or none: standard output",
    "help_explain": "print the steps of backward for an expression",
    "help_explain_format": "text (default) or html: a page that steps through backward "
    "(default: html when -o ends in .html)",
    "help_quiz": "predict each +=: type the number it adds before it is shown (text: asked "
    "here; html: in the page)",
    "about_explain": "Run backward on an expression and print every step of the chain rule.",
    # the playground page (micrograd.app.playground)
    "pg_title": "micrograd playground",
    "pg_data": "data",
    "pg_hidden": "hidden layers",
    "pg_activation": "activation",
    "pg_optimizer": "optimizer",
    "pg_lr": "learning rate",
    "pg_batch": "batch size (0: all)",
    "pg_seed": "random seed",
    "pg_play": "play",
    "pg_pause": "pause",
    "pg_step": "step",
    "pg_reset": "reset",
    "pg_loss": "loss",
    "pg_accuracy": "accuracy",
    "pg_steps": "steps",
    "pg_params": "parameters",
    "pg_name": "name",
    "pg_click": "Click a point to step through the backward pass of its loss.",
    "pg_quiz": "quiz me: predict each +=",
    "pg_serving": "micrograd playground: {url} (Ctrl-C stops it)",
    "pg_stopped": "micrograd playground: stopped",
    "pg_dead": "grey rows: the grad is exactly 0 at this step (a relu unit dead for every "
    "point passes nothing back to its weights)",
    "pg_active": "ringed points: loss > 0, the only ones that send gradient back ({n} of {total})",
    "pg_formula_binary": "loss = mean over points of max(0, 1 - y·score) + 0.0001·Σ w²  (hinge, y = ±1)",
    "pg_formula_softmax": "loss = mean over points of -log softmax(scores)[class] + 0.0001·Σ w²",
    "pg_adam": "m and v: Adam's running averages of each parameter's grad and of its square; "
    "the step is lr · m / (√v + ε), after their bias correction",
    "pg_axis_step": "step",
    "pg_why_zero": "loss = max(0, 1 - y·score) = max(0, 1 - {y}·{score}) = {loss}: this point "
    "is on its side with a margin, so it sends no gradient back and every grad below stays 0. "
    "Click a ringed point to see one that teaches the model.",
    "pg_why_active": "loss = max(0, 1 - y·score) = max(0, 1 - {y}·{score}) = {loss} > 0: this "
    "point is inside the margin or on the wrong side, so it sends gradient back to every parameter.",
    "pg_why_softmax": "loss = -log softmax(scores)[class] = {loss}: under cross-entropy every "
    "point sends gradient back, most of all the ones the model gets wrong.",
    "usage": "usage: ",
    "prev": "◀ back",
    "next": "next ▶",
    "play": "play",
    "pause": "pause",
    "step_of": "step {k} of {n}",
    "nudge": "nudge",
    "skip_zero": "skip += 0",
    "nudge_pick": "Click an input's box, then nudge: the forward pass is recomputed with it "
    "moved by h, as the lecture does by hand.",
    "nudge_result": "({root}({name}+h) - {root}({name})) / h = {slope} with h = {h};  "
    "{name}.grad from backward() = {grad}",
    "nudge_cannot": "this graph has an op the page cannot recompute ({op})",
    # the quiz of the stepper and of `micrograd explain --quiz`: predict each +=
    "quiz_intro": "Predict each +=: type the number it adds to the input's grad, then check.",
    "quiz_ask": "{input}.grad += ?",
    "quiz_check": "check",
    "quiz_show": "show",
    "quiz_right": "right",
    "quiz_right_step": "right: {line}",
    "quiz_wrong": "not quite: the local derivative ∂{node}/∂{input} is {local}, and "
    "{node}.grad (the upstream grad) is {upstream}; += adds their product",
    "quiz_not_number": "type a number, e.g. -1.5 or 1/2",
    "quiz_stopped": "stopped: {asked} of {total} questions answered",
    "quiz_quit": "type q to stop",
    "quiz_values": "the values: {values}",
    "quiz_score": "{right} of {asked} right at the first try",
    # the stepper's neuron view: an MLP's neurons, one box each
    "neuron": "neuron",
    "group_help": "Each box is one part of the computation, its grad that of its last output: "
    "click it to see its scalar ops, click the dashed frame's empty space or 'collapse' to fold "
    "them back. The steps inside a box say its name. Zoom with + and − or Ctrl + the wheel; drag "
    "to move.",
    "group_inside": "inside the box: {step}",
    "neuron_help": "Each box w·x+b → relu is one neuron, its grad that of its output: click "
    "it to see its scalar ops (layers.0.neurons.3:w.1·x is w.1 times its input, "
    ":b+w·x[:2] the bias plus the first two products), click the dashed frame's empty space "
    "or 'collapse' to fold them back. Grey and hatched: a dead ReLU (its output is 0), which "
    "passes no gradient back to its weights, whatever its output's grad. Zoom with + and − "
    "or Ctrl + the wheel; drag to move.",
    "neuron_dead": "dead: relu = 0",
    "neuron_sample": "sample {k}",
    "neuron_inside": "inside the neuron: {step}",
    "neuron_grad": "output grad",
    "view_zoom_in": "zoom in",
    "view_zoom_out": "zoom out",
    "view_fit": "fit",
    "view_follow": "follow the step",
    "view_expand_all": "expand all",
    "view_collapse_all": "collapse all",
    "view_collapse": "collapse",
    "positionals": "positional arguments",
    "options": "options",
    "help_help": "show this help message and exit",
    # ---- the engine's errors: an op, its inputs, and why it failed
    "op_error": "op {op!r} on ({inputs}): {reason}",
    "reason_log": "log is defined for positive numbers only, got {x!r}",
    "reason_zero_negative_power": "0.0 cannot be raised to the negative power {k!r}",
    "reason_too_large": "the result is too large for a float",
    "reason_division_by_zero": "{message}",  # Python's own words: "float division by zero"
    "reason_domain": "{message}",  # Python's own words: "math domain error"
    # ---- argparse's usage errors, which the standard library says in English only
    "usage_see_help": "{error} (see '{prog} --help')",
    "usage_argument": "argument {name}: {error}",
    "usage_required": "the following arguments are required: {x1}",
    "usage_unrecognized": "unrecognized arguments: {x1}",
    "usage_choice": "invalid choice: {x1} (choose from {x2})",
    "usage_one_argument": "expected one argument",
    "usage_invalid": "invalid {x1} value: {x2}",
    "usage_not_with": "not allowed with argument {x1}",
    # ---- the command's help and the lines demo and train print
    "cli.about_micrograd": "A tiny autograd engine: train, draw and explain.",
    "cli.help_version": "show program's version number and exit",
    "cli.help_demo": "train MLP(2, {points_sizes}) on two moons, the original's demo",
    "cli.about_demo": "Train MLP(2, {points_sizes}) on two moons (SGD, hinge loss), print the "
    "accuracies and write model.json, decision_boundary.png and loss.png.",
    "cli.help_train": "train a classifier with your choices of data, model and optimizer",
    "cli.about_train": "Train an MLP classifier on a toy 2-D data set.",
    "cli.help_backend": "how each step runs: auto (numpy where installed, else python), numpy, "
    "python (the traced step replayed), or eager (the graph of Values built and walked each step; "
    "the slowest) (default: %(default)s)",
    "cli.help_out": "folder for the model (model.json, or gpt.json with --data names) and the "
    "pictures (default: %(default)s)",
    "cli.help_seed": "seed for data and weights (default: %(default)s)",
    "cli.help_no_plot": "skip the pictures (no matplotlib needed)",
    "cli.help_quiet": "no progress bar, only the accuracies",
    "cli.help_lang": "language of the help, the output and the pictures: en or zh (default: "
    "from LANG, zh_* is Chinese)",
    "cli.help_data": "the data set: 2-D points, or the 8x8 digits (shipped) or MNIST images "
    "(default: %(default)s)",
    "cli.help_data_dir": "for --data mnist: the folder with its four IDX files",
    "cli.help_noise": "standard deviation of the noise added to the points (default: %(default)s)",
    "cli.help_hidden": "hidden widths, e.g. 16,16 (default: {points_hidden}; {images_hidden} for images)",
    "cli.help_activation": "activation of the hidden layers (default: %(default)s)",
    "cli.help_optimizer": "sgd with a linear learning-rate decay, or adam (default: {points_optimizer}; {images_optimizer} "
    "for images)",
    "cli.help_lr": "learning rate (default: {sgd_lr} decaying to a tenth for sgd, {adam_lr} for adam)",
    "cli.help_momentum": "SGD momentum (default: %(default)s)",
    "cli.help_steps": "training steps (default: {points_steps}; {images_steps} for images)",
    "cli.help_batch_size": "minibatch size (default: the whole training set; {images_batch_size} for images)",
    "cli.help_playground": "train an MLP live in the browser (a local server on 127.0.0.1)",
    "cli.about_playground": "Serve the playground on 127.0.0.1 and open it in the browser: pick "
    "a data set and a model, press play, watch the decision boundary and every parameter's "
    "grad.",
    "cli.help_port": "port (default: %(default)s; 0: any free one)",
    "cli.help_no_browser": "do not open a browser",
    "cli.help_page_lang": "language of the page (default: from LANG)",
    # what demo and train print
    "cli.out_train_accuracy": "train accuracy: {accuracy:.2f}",
    "cli.out_test_accuracy": "test accuracy: {accuracy:.2f}",
    "cli.out_done": "trained {steps} steps in {seconds:.1f} s; wrote {files} to {out}",
    "cli.out_progress": "training",
    "cli.out_unit": "step",
    "cli.out_step": "step {step}/{total}  loss {loss:.4f}  accuracy {accuracy:.2f}",
    "cli.out_first_loss": "note: the first loss is {loss:.2f}; a softmax over {classes} classes "
    "starts near ln {classes} = {ln:.2f} when the first outputs are small: large initial "
    "weights make confident wrong guesses that the first steps must undo",
    # and the errors they stop with
    "cli.err_mnist_dir": "--data mnist needs --data-dir DIR, a folder with the four MNIST files",
    "cli.err_diverged": "training diverged at step {step} ({why}); try a smaller --lr (or "
    "--momentum)",
    "cli.err_budget": "--hidden {hidden} builds about {values:,} Values a step, more than "
    "{limit:,} (a scalar engine makes one Python object per number): choose smaller "
    "widths,{eager} or move the model to PyTorch (micrograd.export.to_torch)",
    "cli.err_budget_eager": " a smaller --batch-size, or install numpy for the fast path, which "
    "builds one sample whatever the batch (pip install 'micrograd-plus[fast]'),",
    "cli.err_out_empty": "--out needs a folder name",
    "cli.err_out_not_folder": "--out {folder}: exists and is not a folder",
    "cli.err_out_no_permission": "--out {folder}: no permission to write there",
    "cli.err_mnist_missing": "mnist: the MNIST files are not in {folder}; download the four "
    "MNIST files (train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz, "
    "t10k-images-idx3-ubyte.gz, t10k-labels-idx1-ubyte.gz) into that folder",
    "cli.err_dash": "; {arg!r} starts with '-', so it reads as an option: put an expression like "
    "it last, after '--' (micrograd explain --set a=1 -- {arg!r}); write a negative number as "
    "--lr=-1",
    "cli.err_widths": "expected widths like 16,16, got {text!r}",
    "cli.err_widths_range": "widths must be between 1 and 4096, got {text!r}",
    "cli.err_not_int": "expected an int, got {text!r}",
    "cli.err_not_number": "expected a float, got {text!r}",
    "cli.err_not_above": "expected a finite number above {low}, got {text!r}",
    "cli.err_not_at_least": "expected a finite number at least {low}, got {text!r}",
    # ---- the pictures of demo and train (the glossary's 损失 loss, 准确率 accuracy)
    "plot.step": "step",
    "plot.loss": "loss",
    "plot.train_accuracy": "train accuracy",
    "plot.train": "train",
    "plot.test": "test",
    "plot.predicted": "predicted",
    "plot.true": "true",
    "plot.no_mistakes": "no mistakes",
    "plot.misclassified": "{n} misclassified test images (true -> predicted)",
    "plot.title": "{data}: {spec}, test accuracy {accuracy:.2f}",
    # ---- the site's pages (site_src/assets/site.js and its Python)
    "site.run": "Run",
    "site.running": "running…",
    "site.edit": "Edit",
    "site.editing": "edited: Run runs your version",
    "site.restore": "Restore the original",
    "site.expected": "output in the document",
    "site.queued": "waiting for the blocks above…",
    "site.skipped": "not run: block {k} above raised an error",
    "site.ran": "ran in {s} s",
    "site.runtime": "Loading Python (Pyodide {x}, about 13 MB; cached after the first visit)…",
    "site.package": "Loading micrograd ({x})…",
    "site.ready": "Python ready in {s} s",
    "site.failed": "Python could not be loaded: {x}",
    "site.crashed": "Python stopped (reload the page to start it again): {x}",
    "site.starting": "Starting Python…",
    "site.gpt_compiling": "tracing and compiling the step, once (a few seconds)…",
    "site.gpt_compiled": "the step was compiled in {s} s; training",
    "site.gpt_paused": "paused at step {step}; the step was compiled in {s} s",
    "site.gpt_bad_temperature": "the temperature must be a number above 0, got {text}",
    "site.gpt_sampled": "{n} names at temperature {t}, after {step} steps; each click draws new ones",
    "site.gpt_ready": "the step was compiled in {s} s: press train",
    "site.gpt_ms": "{ms} ms a step in Python",
    "site.steps_per_s": "{r} steps/s ({ms} ms per step in Python)",
    "site.passed": "passed",
    "site.not_passed": "not passed yet",
    "site.progress": "{n} of {total} exercises passed in this browser",
    "site.checking": "checking…",
    "site.check_too_long": "stopped after {s} s: the check ran too long (a loop that never ends?). Python starts again at the next check; your code is kept.",
    "site.check_stopped": "stopped: Python starts again at the next check; your code is kept.",
    "site.no_more_hints": "no more hints",
    "site.bad_value": "a value must read name=number, got {part!r}",
    "site.unknown_name": "unknown name '{name}': add {name}=1.0 to Values",
    "site.bad_hidden": "hidden layers are widths separated by commas, such as 8, 8 (1 to {layers} "
    "layers of 1 to {width} neurons each); got {got!r}",
    # ---- practice
    # the local rules, as the first wrong step explains them: practice.why.OP.I is the rule OP
    # (a key of micrograd.engine.OPS, or - and neg) for its operand I
    "practice.why.+.0": "the local derivative of `+` with respect to each operand is 1",
    "practice.why.+.1": "the local derivative of `+` with respect to each operand is 1",
    "practice.why.-.0": "the local derivative of `-` with respect to its left operand is 1",
    "practice.why.-.1": "the local derivative of `-` with respect to its right operand is -1",
    "practice.why.*.0": "the local derivative of `*` with respect to its left operand is the "
    "right operand's data, {value}",
    "practice.why.*.1": "the local derivative of `*` with respect to its right operand is the "
    "left operand's data, {value}",
    "practice.why./.0": "the local derivative of `a / b` with respect to a is 1/b = {value}",
    "practice.why./.1": "the local derivative of `a / b` with respect to b is -a/b**2 = {value}",
    "practice.why.**k.0": "the local derivative of `x**k` is k * x**(k-1) = {value} (k = {k})",
    "practice.why.**.0": "the local derivative of `a**b` with respect to a is b * a**(b-1) = "
    "{value}",
    "practice.why.**.1": "the local derivative of `a**b` with respect to b is a**b * log(a) = "
    "{value}",
    "practice.why.neg.0": "the local derivative of `-x` is -1",
    "practice.why.tanh.0": "the local derivative of tanh is 1 - t**2 = {value}, where t is the "
    "output's data",
    "practice.why.exp.0": "exp is its own derivative: the local derivative is the output's data, "
    "{value}",
    "practice.why.ReLU.0": "the local derivative of relu is 1 where its input is > 0, else 0: "
    "here {value}",
    "practice.why.log.0": "the local derivative of log(x) is 1/x = {value}",
    "practice.why.sigmoid.0": "the local derivative of sigmoid is s * (1 - s) = {value}",
    "practice.why.sin.0": "the local derivative of sin(x) is cos(x) = {value}",
    "practice.why.cos.0": "the local derivative of cos(x) is -sin(x) = {value}",
    "practice.why.rule": "the local derivative, by the engine's rule ({rule}), is {value}",
    "practice.tampered": "the code replaced part of the checker itself ({names}): no verdict "
    "is given on a checker that the code under check has changed",
    "practice.apart_killed": "the code ran past the {seconds} s limit and did not stop when "
    "asked (an `except:` that swallows every interruption?): the check's process was ended",
    "practice.apart_signal": "the check's process was killed by {how} while the code ran: no "
    "verdict",
    "practice.apart_killed_oom": "the check's process was killed (SIGKILL) while the code ran, as "
    "the system ends a process that runs out of memory: no verdict",
    "practice.apart_ended": "the code ended the check's process (exit status {code}, as "
    "os._exit() or a crash does) before a verdict{said}",
    "practice.upstream_unread": "with an upstream grad of {other} it adds {found} again: the "
    "closure does not multiply by out.grad (it reads something else: a number kept from when "
    "{node} was made, another Value's grad?)",
    "practice.reads_out_data": "with an upstream grad of {other} it adds {found} again: the "
    "closure multiplies by out.data, the output's number, where out.grad belongs",
    "practice.upstream_sign": "with an upstream grad of {other} it adds the same size with the "
    "wrong sign: the closure takes out.grad's size but drops its sign (abs?)",
    "practice.adds_nothing": "with an upstream grad of {other} it adds nothing either",
    "practice.upstream_divides": "with an upstream grad of {other} it adds the local derivative "
    "divided by {other}: the closure divides by out.grad where the chain rule multiplies",
    "practice.local_sign": "that is the local derivative with its sign flipped: the size is "
    "right, the sign is not (a minus sign lost or added, or an abs() that drops an input's "
    "sign?)",
    "practice.held_before": "`{input}.grad` held {before} before",
    "practice.upstream_part": "with other upstream grads it adds `{part} {sign} {slope} * "
    "out.grad`: {part} of it does not grow with the upstream grad. The chain rule multiplies the "
    "whole local derivative, {local}, by out.grad: `(local derivative) * out.grad` (brackets "
    "missing?)",
    "practice.one_share": "`{input}` is {n} of this node's operands, so it gets {n} shares, "
    "one for each; it got one",
    "practice.other_share": "that is its own share and {other}'s: a line meant for {other} adds "
    "to `{input}` (self where other belongs?)",
    "practice.both_operands": "`{input}` is both operands, so both shares add up",
    # the first wrong step
    "practice.step_wrong": "`{input}.grad` got {found} from `{node}._backward()` (upstream grad "
    "{upstream}); expected {expected}: {why}",
    "practice.assign": "`{input}.grad` became {after} after `{node}._backward()`; expected "
    "{before} + {expected} = {total} (what it held, plus this step's share): the closure sets the "
    "grad with = instead of adding with +=, so what `{input}.grad` held before is lost",
    "practice.not_attached": "`{node}._backward()` is still the do-nothing default, so "
    "`{input}.grad` got nothing from it; expected {expected}: the closure is written but never "
    "attached (`out._backward = _backward` is missing)",
    "practice.operand_binary": "that is what the other operand's data gives: the closure reads "
    "the wrong operand",
    "practice.swapped.tanh": "that is 1 - x**2, from the input x, where the output t belongs",
    "practice.swapped.exp": "that is the input's data, where the output's belongs",
    "practice.swapped.log": "that is 1 / out.data, from the output, where the input belongs",
    "practice.swapped.ReLU": "that is the output's value itself, where the slope (0 or 1) belongs",
    "practice.operand_own": "what it added, {found}, is {input}'s own value times the upstream "
    "grad: for *, the local derivative for {input} is the other operand's value",
    "practice.wrong_upstream": "that is the local derivative times {grad}, an input's grad: the "
    "upstream grad is the output's, {node}.grad (out.grad in the closure), not self.grad",
    "practice.called_closure": "`{node}._backward` is {kind}, not a function: the closure was "
    "called (`out._backward = _backward()`), not attached. Write `out._backward = _backward`, "
    "without the brackets",
    "practice.closure_at": "the closure at {path} line {line}",
    "practice.no_upstream": "that is the local derivative alone: multiply it by the upstream grad "
    "out.grad (the chain rule)",
    "practice.wrong_forward": "`{node}` has data {found}; expected {expected} ({symbol} of {args})",
    "practice.out_differs": "`{what}` has data {found} at {where}; expected {expected}",
    "practice.grad_differs": "`{input}.grad` is {found} ({where}); micrograd's engine gives "
    "{expected}",
    # learner code that fails
    "practice.no_file": "no file {path}",
    "practice.load_failed": "your code could not be run: {error}",
    "practice.not_written": "`{what}` is not written yet (it raises NotImplementedError)",
    "practice.exited": "your code called {how} inside `{what}`",
    "practice.raised": "`{what}` raised {error}",
    "practice.recursion": "`{what}` raised RecursionError: a recursive topological sort (or "
    "_backward() calls that call each other) goes one Python call deeper per Value; build the "
    "order with a loop and a stack of your own",
    "practice.no_class": "no class `{name}` in your code",
    "practice.too_long": "`{what}` ran for more than {seconds} s and was stopped: a loop that "
    "never ends? (a while loop whose condition never changes, or a walk over the graph that never "
    "marks what it visited)",
    "practice.check_too_long": "the check ran for more than {seconds} s and was stopped: is "
    "there a loop in your code that runs far too often (or never ends)?",
    "practice.printed": "what your code printed ({n} in all):",
    "practice.printed_more": "… and {n} more not shown",
    "practice.number_unwrapped": "`{what}` raised {error}: a number must be wrapped in a Value "
    "before its .data is read: `other = other if isinstance(other, Value) else Value(other)`",
    "practice.number_left": "`{what}` raised {error}: with a number on the left, Python asks the "
    "Value on the right for `{method}`: define it, for example `def {method}(self, other): "
    "return {body}`",
    "practice.not_in_graph": "{input} is not in the graph of `{what}`: following _prev from the "
    "result never reaches {input}, so no grad can come back to it. List both operands as the new "
    "Value's children (Value(..., (self, other), op)) and build it from Value ops, not from .data",
    "practice.number_recursion": "`{what}` raised RecursionError: {method} calls itself without "
    "end: with a number on the left, returning `other {op} self` asks the Value's {method} "
    "again. Return {body}",
    "practice.number_cut": "`{what}` returned a {kind}, not a Value: a number taken out of the "
    "graph (.data, math.log) cuts it, and no gradient reaches the logits; compute with the Values' "
    "own ops (probs[target].log())",
    "practice.not_value": "`{what}` returned a {kind}, not a Value",
    "practice.param_not_value": "`{what}` is a {kind}, not a Value: wrap the weights and the bias in Value()",
    "practice.not_notebook": "not a notebook: {path}",
    "practice.missing_method": "your Value has no {method}",
    "practice.unknown_exercise": "no exercise {exercise!r}; the exercises are: {known}",
    # backward()
    "practice.chain": "a chain of {n} Values",
    "practice.other_order": "{title}, each Value's _prev (a set) iterated in another order: a "
    "set's order follows the Values' addresses, so a topological order must not depend on it",
    # the stubs' TODO lines (micrograd.practice.reference.stub): in English, the reference
    # solutions' own comments; in another language, one line per TODO of the exercise, in order
    "practice.todo.derivative": "",  # its TODOs say nothing but TODO
    "practice.todo.zero-grad": "",
    "practice.todo.softmax-nll": "",
    "practice.todo.op-add": "",
    "practice.todo.op-mul": "",
    "practice.todo.op-pow": "",
    "practice.todo.op-tanh": "",
    "practice.todo.op-exp": "",
    "practice.todo.op-relu": "",
    "practice.todo.op-sub": "",
    "practice.todo.op-div": "",
    "practice.todo.op-log": "",
    "practice.todo.op-pow-value": "",
    "practice.todo.backward": "",
    "practice.todo.neuron-mlp": "",
    "practice.se_graph": "the Stack Exchange graph at a = {a}, b = {b}",
    "practice.ran_twice": "`{node}._backward()` ran a second time: each node's _backward() must "
    "run exactly once, so its inputs got their share twice (a node reached by two paths was run "
    "on each: build the whole order first, each node in it once, then run it)",
    "practice.root_not_one": "the output's _backward() ran with grad {found}; expected 1: "
    "backward() starts by setting the output's grad to 1 (self.grad = 1.0)",
    "practice.too_early": "`{node}._backward()` ran while {node}.grad was {found}; expected "
    "{expected}: `{later}` uses {node} too and had not passed its share yet. A node may run only "
    "after every Value made from it, and this walk's order is not a topological order reversed",
    "practice.preorder": "`{node}._backward()` ran before the nodes made from {node}, although "
    "the walk reverses its list: the list has nodes before their children, so reversed it runs "
    "inputs first. It was built with each node appended before its children (a pre-order), or "
    "kept in a set, which has no order. Append a node to a list after all its children "
    "(`for child in v._prev: build_topo(child)`, then `topo.append(v)`), then walk it reversed",
    "practice.inputs_first": "`{node}._backward()` ran before the nodes made from {node}: the "
    "closures ran inputs first. The order to walk is a topological order (each node appended "
    "after its children) reversed: `for v in reversed(topo): v._backward()`",
    "practice.kept_default": "{where}: after backward(), the default argument `{arg}` of "
    "`{method}` holds {n} Values: a default {kind} is made once, when the def runs, and every call "
    "shares it, so the next backward() finds this graph's Values in it and skips them. Write "
    "`{arg}=None` and make a new {kind} in the call (`if {arg} is None: {arg} = {kind}()`)",
    "practice.second_call": "{where}: `{input}.grad` is {found}, expected {expected}: the second "
    "backward() did not walk the graph again (a `visited` or `topo` kept from the first call: a "
    "global, or a mutable default argument such as `visited=set()`, lives on between calls)",
    "practice.second_zero": "a second zero_grad_all(root), after root.backward() again, left "
    "`{node}.grad` at {value}: something kept from the first call made it skip the nodes it had "
    "met (a mutable default argument such as `seen=set()` lives on between calls)",
    "practice.unused_moved": "train() moved u, a parameter in params that the loss does not "
    "use, from 0.5 to {found}: it started with a stale grad (3), and zeroing the loss's graph "
    "does not reach it; zero the parameters' grads (zero_grad(params))",
    "practice.two_losses": "after (a * b).backward() and then (a + b).backward()",
    "practice.zeroes_leaves": "{where}, `{input}.grad` is {found}; expected {expected}: only the "
    "second backward()'s share is left. backward() must not set grads to 0 (the leaves add up "
    "what every backward() gives them): zeroing them is zero_grad()'s job in the training loop",
    "practice.deep_challenge": "A challenge beside the pass: on a chain of {n} Values your "
    "backward() stopped at Python's recursion limit (a recursive build_topo makes one call per "
    "Value). Sort with a loop and a stack of your own, and any depth works.",
    "practice.never_ran_equal": "`{node}._backward()` never ran, so its inputs got nothing from "
    "it; `{twin}`, another Value with the same data ({data}), did: the walk took the two for one "
    "(a `visited` kept by .data, or Values made equal and hashed by their data?)",
    "practice.never_ran": "`{node}._backward()` never ran, so its inputs got nothing from it",
    # zero_grad and train
    "practice.leaf_still_set": "after zero_grad_all(root), `{node}.grad` is still {value}: {node} "
    "is a leaf, {depth} levels below root. Walk the whole graph, down to the leaves, not only root "
    "and its direct inputs",
    "practice.still_set": "after zero_grad_all(root), `{node}.grad` is still {value}: every Value "
    "of the graph needs its grad set to 0, inner ones too, not only the leaves",
    "practice.params_not_zeroed": "after zero_grad(params), parameter {index} has grad {value}; "
    "expected 0",
    "practice.accumulated": "in step {step}, `{name}.grad` is {found}, but that step's own "
    "gradient is {expected}: it still holds {previous} from step {previous_step}. The grads were "
    "not reset: zero them before loss.backward()",
    "practice.zeroed_late": "in step {step}, the update moved `{name}` by a grad of 0; its "
    "gradient was {expected}: the grads were zeroed after loss.backward() and before the update. "
    "Zero them before loss.backward() (or after the update)",
    "practice.bad_update": "after step {step}, `{name}.data` is {found}; expected {expected} "
    "(p.data += -lr * p.grad)",
    "practice.calls": "train() called loss_fn {found} times for steps={steps}: call loss_fn() "
    "inside the loop, once a step (each step builds the graph anew from the updated parameters)",
    "practice.calls_count": "train() called loss_fn {found} times for steps={steps}: a step is "
    "one loss_fn(), backward() and update, so the loop runs `steps` times (range(steps))",
    "practice.calls_one_step": "train() called loss_fn once for steps={steps}, and the "
    "parameters moved by one right step: the loop ended after its first step (a `return` inside "
    "the loop?)",
    "practice.leaf_behind_zero": "zero_grad_all(b * c + b), on a graph not backwarded yet whose "
    "leaves hold grads from another, left `{node}.grad` at {value}: the walk stopped at a node "
    "whose grad was already 0 (its inputs may still hold theirs)",
    "practice.params_again": "MLP.parameters() gave {first} Values, and {second} when asked "
    "again: it adds to a list it keeps (self.w.append(self.b)?) instead of making a new one",
    "practice.stale_at_start": "in step 1, `{name}.grad` is {found}, but that step's own gradient "
    "is {expected}: it still holds {stale}, the grad it had before train() began. Zero the grads "
    "in each step before loss.backward() (at its start, or after loss_fn()), not after the update",
    "practice.not_updated": "in step {step}, `{name}` did not move, though its grad is not 0: the "
    "update never reached its data (`p = p - lr * p.grad` makes a new Value and leaves the "
    "parameter as it was; `p.data += -lr * p.grad` changes it)",
    "practice.twice_after_reset": "a second root.backward() after zero_grad_all(root) gives "
    "a.grad {found}; the first gave {expected}",
    # Neuron, Layer, MLP
    "practice.uphill": "in step {step}, `{name}` moved along its gradient {expected} instead of "
    "against it: the update went uphill. Step against it: p.data += -lr * p.grad",
    "practice.nested": "`{what}` is a {kind}: parameters() must be one flat list of Values. Join "
    "the neurons' lists: [p for n in self.neurons for p in n.parameters()]",
    "practice.param_order_listed": "the network computes the right outputs with its neurons' own "
    "w and b, but parameters() lists them in another order than the lecture's: layer by layer, "
    "neuron by neuron, each neuron's w then its b (an optimizer pairs each parameter with its "
    "state by that order, and saved weights load by it)",
    "practice.param_order": "your parameters() lists each neuron's b before its w: the forward "
    "pass is right only when the parameters are read in that order. List them as the lecture "
    "does, w then b (self.w + [self.b]): the order an optimizer, a saved model and this check "
    "read them in",
    "practice.syntax": "your code could not be run: line {line} is not Python: {reason} ({code})",
    "practice.params_replaced": "train() left new Values in params where the parameters were: the "
    "graph loss_fn() builds holds the old ones, so their grads are not the ones zeroed, and the "
    "model trains what it no longer holds. Zero each Value's grad in place (p.grad = 0)",
    "practice.mlp_first_layer_only": "MLP(2, [8, 8, 1]) has {found} parameters, those of its "
    "first layer alone; expected {expected}: the loop that builds the layers ended after the "
    "first (a `return` inside it?)",
    "practice.mlp_output_changes": "MLP(2, [8, 8, 1])(x), called on three points in turn, "
    "returned {kinds}: what it returns changes from call to call (a list kept on a layer and "
    "added to, instead of made anew in each call?)",
    "practice.mlp_layer_count": "layer {i}, Layer({nin}, {nout}), has {found}; expected {expected}: "
    "{nout} neurons of {nin} weights and a bias",
    "practice.mlp_params_count": "MLP(2, [8, 8, 1]) has {found} parameters; expected {expected}: "
    "its layers take 2, 8 and 8 inputs into 8, 8 and 1 neurons, (2+1)·8 + (8+1)·8 + (8+1)·1",
    "practice.row_mlp": "the MLP's parameters",
    "practice.params_count": "{what} has {found} parameters; expected {expected}",
    "practice.neuron_linear": "Neuron(3)(x) gives {found}, w·x + b itself: the activation is "
    "missing. Return act.tanh() (act = w·x + b): {expected} here",
    "practice.neuron_forward": "Neuron(3)(x) gives {found}; act(w·x + b) is {expected} with tanh, "
    "{relu} with relu",
    "practice.mlp_output": "MLP(2, [8, 8, 1])(x) returned a {kind}: a layer of one neuron returns "
    "that Value itself, not a list",
    "practice.mlp_grad": "after loss.backward(), parameter {index}'s grad is {found}; micrograd's "
    "engine gives {expected} for the same network",
    "practice.shared_neuron": "parameters() lists the same Value {n} times: one object was made "
    "once and listed n times, as `[Neuron(nin)] * nout` (the neurons of a layer) or `[Value(...)] "
    "* nin` (the weights of a neuron) do. Make each one by its own call: `[Neuron(nin) for _ in "
    "range(nout)]`, `[Value(random.uniform(-1, 1)) for _ in range(nin)]`",
    "practice.train_loss": "training on two moons: the loss before step {step} is {found}; the "
    "same network on micrograd's engine, trained the same way from the same weights, has "
    "{expected}",
    "practice.trained": "two moons: the loss fell from {first} to {last} in {steps} steps, as on "
    "micrograd's engine",
    # the result
    # the mistakes' names (micrograd.practice.result.MISTAKES)
    "practice.mistake.assign-not-add": "assign-not-add",
    "practice.mistake.closure-not-attached": "closure-not-attached",
    "practice.mistake.called-closure": "called-closure",
    "practice.mistake.wrong-local": "wrong-local",
    "practice.mistake.wrong-operand": "wrong-operand",
    "practice.mistake.wrong-upstream": "wrong-upstream",
    "practice.mistake.number-operand": "number-operand",
    "practice.mistake.not-reset": "not-reset",
    "practice.mistake.zeroed-late": "zeroed-late",
    "practice.mistake.zeroes-leaves": "zeroes-leaves",
    "practice.mistake.recursion-limit": "recursion-limit",
    "practice.mistake.visit-order": "visit-order",
    "practice.mistake.not-reversed": "not-reversed",
    "practice.mistake.reversed-not-topological": "reversed-not-topological",
    "practice.mistake.wrong-forward": "wrong-forward",
    "practice.mistake.graph-cut": "graph-cut",
    "practice.mistake.no-output-grad": "no-output-grad",
    "practice.mistake.graph-reused": "graph-reused",
    "practice.mistake.update-sign": "update-sign",
    "practice.mistake.difference-quotient": "difference-quotient",
    "practice.mistake.param-count": "param-count",
    "practice.mistake.nested-params": "nested-params",
    "practice.mistake.param-order": "param-order",
    "practice.mistake.list-output": "list-output",
    "practice.mistake.shared-neuron": "shared-neuron",
    "practice.mistake.own-value": "own-value",
    "practice.mistake.input-not-output": "input-not-output",
    "practice.mistake.running-total": "running-total",
    "practice.mistake.no-upstream": "no-upstream",
    "practice.mistake.input-output-swapped": "input-output-swapped",
    "practice.mistake.value-as-slope": "value-as-slope",
    "practice.mistake.unfinished": "unfinished",
    "practice.mistake.not-written": "not-written",
    "practice.mistake.syntax-error": "syntax-error",
    "practice.mistake.too-long": "too-long",
    "practice.mistake.tampered": "tampered",
    "practice.mistake.other": "other",
    "practice.passed": "{exercise}: passed",
    "practice.failed": "{exercise}: not yet ({mistake})",
    "practice.first_wrong_step": "first wrong step: {step}",
    "practice.hint_for_step": "a hint for this step: {hint}",
    "practice.seed": "random seed {seed} (check(..., seed={seed}) or --seed {seed} replays these "
    "points)",
    "practice.table_caption": "Each input's grads at the points checked: how many equal the "
    "expected grad (micrograd's engine, or the exact derivative) exactly, how many are close, "
    "and the largest differences from it and from central differences.",
    "practice.col_exercise": "exercise",
    "practice.col_result": "result",
    "practice.col_step": "first wrong step",
    "practice.ok": "ok",
    "practice.col_input": "input",
    "practice.col_points": "points",
    "practice.col_exact": "exact",
    "practice.col_close": "close",
    "practice.col_engine": "max diff (engine)",
    "practice.col_numeric": "max diff (central differences)",
    # the exercises around the engine (micrograd.practice.lecture)
    "practice.no_function": "no function `{name}` in your code",
    "practice.three_numbers": "{what} must return three numbers [df/da, df/db, df/dc], got {found}",
    "practice.gradf_wrong": "gradf gives df/d{input} = {found} at {where}; expected {expected}",
    "practice.over_h": "{fn} gives df/d{input} = {found} at {where}, twice the right {expected}: "
    "a central difference spans 2h, so divide by 2 * h",
    "practice.times_h": "{fn} gives df/d{input} = {found} at {where}; expected {expected}: `/ 2 * "
    "h` divides by 2 and then multiplies by h; write `/ (2 * h)`",
    "practice.nudged_another": "{fn} gives df/d{input} = {found} at {where}, which is df/d{other}: "
    "nudge {input}, the input whose derivative it is, and keep the others as they are",
    "practice.nudge_wrong": "{fn} gives df/d{input} = {found} at {where}; nudging {input} as the "
    "exercise says gives {expected}",
    "practice.nudged_other_way": "{fn} gives df/d{input} = {found} at {where}, the other kind of "
    "difference: numerical_grad nudges forward only, (f(x + h) - f(x)) / h; symmetric_grad up and "
    "down, (f(x + h) - f(x - h)) / (2h); expected {expected}",
    "practice.predict_wrong": "{node}'s step, `{input}.grad += ?`: you said {found}; expected "
    "{expected}: the local derivative ∂{node}/∂{input} is {local} and {node}.grad (the upstream "
    "grad) is {upstream}",
    "practice.predict_own_value": "{found} is {input}'s own value: what the step adds is the "
    "local derivative ∂{node}/∂{input} (for *, the other input's value) times {node}.grad",
    "practice.predict_input_not_output": "{found} is 1 - {input}**2, from the input: tanh's "
    "local derivative uses its output, 1 - {node}**2 = {local}",
    "practice.predict_running_total": "{found} is {input}.grad after this +=, the running total: "
    "asked is what this one += adds, {local} * {upstream}",
    "practice.predict_count": "give one number per +=, in backward()'s order: {expected} numbers; "
    "got {found}",
    "practice.softmax_forward": "softmax(logits)[{i}] is {found}; expected {expected} (exp of "
    "logit {i} over the sum of the exps)",
    "practice.graph_cut_leaf": "softmax(logits)[{i}] is {value}, a Value with no inputs: it was "
    "made anew from a number (Value(x.data), or a constant put in its place), so no gradient "
    "reaches {logit} through it. Keep it the result of ops on the logits",
    "practice.graph_cut": "softmax(logits)[{i}] has the right value, but its graph does not reach "
    "{logit}: a number was taken out of the graph with .data (a denominator such as `sum(c.data "
    "for c in counts)` is a plain float), so no gradient flows back through it. Compute with the "
    "Values: `sum(counts)`",
    "practice.nll_forward": "nll(probs, {target}) is {found}; expected -log(probs[{target}]) = "
    "{expected}",
    # the command: micrograd practice ...
    "practice.cmd.task": "Task",
    "practice.cmd.hints_left": "hint {n} of {total}",
    "practice.cmd.last_hint": "That was the last hint. After a check, `micrograd practice reveal "
    "{id}{how}` shows a solution.",
    "practice.cmd.more_hints": "More: `micrograd practice hint {id}{how}`.",
    "practice.cmd.exists": "{path} exists already: not overwritten (delete it to start again)",
    "practice.cmd.written": "wrote {path}: write the TODO parts, then `micrograd practice check "
    "{id}{how}`",
    "practice.cmd.written_quiz": "wrote {path}: open it in a browser and predict each +=, or "
    "answer in the terminal: `micrograd practice check {id}{how}`",
    "practice.cmd.no_stub": "no {path}: start with `micrograd practice start {id}{how}`, or give a file",
    "practice.cmd.reveal_first": "check your own attempt first: `micrograd practice check {id}{how}` "
    "(reveal opens after one check)",
    "practice.cmd.solution": "A solution for {id} ({way}):",
    "practice.cmd.way.lecture": "the lecture's way",
    "practice.cmd.way.gpt": "microgpt's way",
    "practice.cmd.checked": "checked: {path}",
    "practice.cmd.corrupt": "{path} could not be read ({why}): starting over with no progress",
    "practice.cmd.fresh": "no progress yet ({path} does not exist)",
    "practice.cmd.passed_count": "{n} of {total} exercises passed",
    "practice.cmd.col_id": "exercise",
    "practice.cmd.col_title": "title",
    "practice.cmd.col_attempts": "checks",
    "practice.cmd.col_hints": "hints",
    "practice.cmd.col_done": "passed",
    "practice.cmd.yes": "yes",
    "practice.cmd.no": "-",
    "practice.cmd.stub_check": "check it:   micrograd practice check {id}{how}",
    "practice.cmd.stub_hint": "a hint:     micrograd practice hint {id}{how}",
    "practice.cmd.unknown": "no exercise {id!r}; `micrograd practice list` shows them",
    "practice.cmd.help": "exercises: write backpropagation yourself, checked step by step",
    "practice.cmd.about": "Practise backpropagation: each exercise asks for a part of a "
    "lecture-style Value; check finds the first wrong step of your code.",
    "practice.cmd.help_lang": "language: en or zh (default: from LANG, zh_* is Chinese)",
    "practice.cmd.help_list": "the exercises, in the lecture's order",
    "practice.cmd.help_start": "write ./practice/ID.py: the task and a stub to fill in",
    "practice.cmd.help_notebook": "write ID.ipynb instead",
    "practice.cmd.help_check": "check your code (default: ./practice/ID.py); exit 0 if it passes",
    "practice.cmd.help_seed": "replay the random points of an earlier check",
    "practice.cmd.help_hint": "the next hint for an exercise",
    "practice.cmd.help_reveal": "a reference solution (after at least one check)",
    "practice.cmd.help_status": "your progress, from ./practice/progress.json",
    "practice.cmd.help_check_engine": "every exercise that applies to a whole lecture-style engine",
    # the exercises, in the lecture's order: a title, a task and hints (from 0) each
    "exercise.derivative.title": "a derivative by hand and by nudging",
    "exercise.derivative.task": "The stub defines f(a, b, c) = -a**3 + sin(3*b) - 1.0/c + b**2.5 "
    "- a**0.5. Write gradf(a, b, c), the list [df/da, df/db, df/dc] worked out by hand; "
    "numerical_grad(f, a, b, c, h), the same by nudging each input by h (forward differences, "
    "(f(a+h, b, c) - f(a, b, c)) / h); and symmetric_grad(f, a, b, c, h), with central "
    "differences (f(a+h) - f(a-h)) / (2h), which are closer.",
    "exercise.derivative.hint.0": "Differentiate term by term: d(-a**3)/da = -3*a**2 and "
    "d(a**0.5)/da = 0.5*a**-0.5; the b and c terms do not move when a does.",
    "exercise.derivative.hint.1": "d sin(3*b)/db = 3*cos(3*b) (the chain rule); d(-1/c)/dc = "
    "1/c**2.",
    "exercise.derivative.hint.2": "Nudge one input at a time, keeping the other two as they are; "
    "the symmetric version nudges up and down and divides by 2*h.",
    "exercise.predict-lecture.title": "predict the grads: the lecture's first graph",
    "exercise.predict-lecture.task": "L = (a*b + c) * f with a = 2, b = -3, c = 10, f = -2, as "
    "the lecture fills it in by hand. Predict each += of L.backward(): `micrograd practice check "
    "predict-lecture` asks them one at a time in the terminal; the page "
    "practice/predict-lecture.html asks the same in a browser.",
    "exercise.predict-lecture.hint.0": "Each step adds (local derivative) * (the node's grad): "
    "the node's grad is shown in the step's line.",
    "exercise.predict-lecture.hint.1": "For +, the local derivative is 1 for both inputs; for *, "
    "it is the other input's data.",
    "exercise.predict-lecture.hint.2": "L.grad is 1; d.grad is f's data, -2; e's comes from d "
    "through +.",
    "exercise.op-add.title": "__add__: the local rule of +",
    "exercise.op-add.task": "Write Value.__add__ the lecture's way: out = Value(self.data + "
    "other.data, (self, other), '+') and a _backward closure that passes out.grad on to both "
    "inputs. A number on either side must work (2 + a uses __radd__).",
    "exercise.op-add.hint.0": "d(a + b)/da = 1 and d(a + b)/db = 1: each input gets 1 * out.grad.",
    "exercise.op-add.hint.1": "Use += in the closure: a Value used twice (a + a) must get both "
    "shares.",
    "exercise.op-add.hint.2": "Attach the closure before returning: out._backward = _backward.",
    "exercise.op-mul.title": "__mul__: the local rule of *",
    "exercise.op-mul.task": "Write Value.__mul__: out = Value(self.data * other.data, (self, "
    "other), '*') and its _backward closure.",
    "exercise.op-mul.hint.0": "d(a * b)/da = b: each input's local derivative is the OTHER "
    "operand's data.",
    "exercise.op-mul.hint.1": "self.grad += other.data * out.grad, and other.grad += self.data * "
    "out.grad.",
    "exercise.op-mul.hint.2": "a * a: both lines add to a.grad, which gets 2 * a.data * out.grad.",
    "exercise.predict-neuron.title": "predict the grads: the tanh neuron",
    "exercise.predict-neuron.task": "o = tanh(x1*w1 + x2*w2 + b) with x1 = 2, x2 = 0, w1 = -3, w2 "
    "= 1, b = 6.8813735870195432 (the lecture's neuron, o = 0.7071). Predict each += of "
    "o.backward().",
    "exercise.predict-neuron.hint.0": "d tanh(n)/dn = 1 - tanh(n)**2 = 1 - o**2: with o = 0.7071 "
    "that is 0.5.",
    "exercise.predict-neuron.hint.1": "The sum passes n's grad unchanged to each of its inputs.",
    "exercise.predict-neuron.hint.2": "x2 is 0, so w2 gets 0 * its upstream; x1 gets w1 * its "
    "upstream.",
    "exercise.op-pow.title": "__pow__ with a number exponent",
    "exercise.op-pow.task": "Write Value.__pow__ for a number k (int or float): out = "
    "Value(self.data**k, (self,), f'**{{k}}') and its closure. (A Value exponent comes in "
    "op-pow-value.)",
    "exercise.op-pow.hint.0": "d(x**k)/dx = k * x**(k-1).",
    "exercise.op-pow.hint.1": "Mind the brackets: other * self.data ** (other - 1), not self.data "
    "** other - 1.",
    "exercise.op-pow.hint.2": "The exponent is a plain number here: only self gets a grad.",
    "exercise.op-tanh.title": "tanh",
    "exercise.op-tanh.task": "Write Value.tanh(): t = tanh(self.data) (math.tanh, or the "
    "lecture's (e**2x - 1)/(e**2x + 1)), out = Value(t, (self,), 'tanh'), and its closure.",
    "exercise.op-tanh.hint.0": "d tanh(x)/dx = 1 - tanh(x)**2.",
    "exercise.op-tanh.hint.1": "Use t, the OUTPUT's data: 1 - t**2, not 1 - x**2.",
    "exercise.op-tanh.hint.2": "Multiply by the upstream grad: self.grad += (1 - t**2) * out.grad.",
    "exercise.op-exp.title": "exp",
    "exercise.op-exp.task": "Write Value.exp(): out = Value(math.exp(self.data), (self,), 'exp') "
    "and its closure.",
    "exercise.op-exp.hint.0": "exp is its own derivative: d e**x/dx = e**x.",
    "exercise.op-exp.hint.1": "The local derivative is out.data (the output's data), not "
    "self.data.",
    "exercise.op-exp.hint.2": "self.grad += out.data * out.grad.",
    "exercise.op-relu.title": "relu",
    "exercise.op-relu.task": "Write Value.relu(): out = Value(0 if self.data < 0 else self.data, "
    "(self,), 'ReLU') and its closure.",
    "exercise.op-relu.hint.0": "The local derivative is 1 where the input is > 0, else 0 (0 at "
    "exactly 0, as in PyTorch).",
    "exercise.op-relu.hint.1": "(out.data > 0) is True or False, which Python multiplies as 1 or "
    "0.",
    "exercise.op-relu.hint.2": "self.grad += (out.data > 0) * out.grad.",
    "exercise.op-sub.title": "__sub__",
    "exercise.op-sub.task": "Write Value.__sub__ (a - b): from the ops you have (self + (-other), "
    "where __neg__ is self * -1), or as one op '-' with its own closure.",
    "exercise.op-sub.hint.0": "d(a - b)/da = 1 and d(a - b)/db = -1.",
    "exercise.op-sub.hint.1": "Built from + and negation, the chain rule finds the -1 for you.",
    "exercise.op-sub.hint.2": "As its own op: self.grad += out.grad and other.grad += -1 * "
    "out.grad.",
    "exercise.op-div.title": "__truediv__",
    "exercise.op-div.task": "Write Value.__truediv__ (a / b): from the ops you have (self * "
    "other**-1), or as one op '/' with its own closure.",
    "exercise.op-div.hint.0": "d(a / b)/da = 1/b and d(a / b)/db = -a/b**2.",
    "exercise.op-div.hint.1": "self * other**-1 reuses __mul__ and __pow__: no new closure is "
    "needed.",
    "exercise.op-div.hint.2": "As its own op: other.grad += -self.data / other.data**2 * out.grad.",
    "exercise.op-log.title": "log",
    "exercise.op-log.task": "Write Value.log() (the natural logarithm): out = "
    "Value(math.log(self.data), (self,), 'log') and its closure.",
    "exercise.op-log.hint.0": "d log(x)/dx = 1/x.",
    "exercise.op-log.hint.1": "Use self.data (the input's data), not out.data: 1 / self.data.",
    "exercise.op-log.hint.2": "self.grad += (1 / self.data) * out.grad.",
    "exercise.op-pow-value.title": "x ** y with a Value exponent",
    "exercise.op-pow-value.task": "Let ** take a Value exponent. In the stub, __pow__ calls "
    "self._pow_value(other): write it, with out = Value(self.data**other.data, (self, other), "
    "'**') and a closure that gives both inputs their share.",
    "exercise.op-pow-value.hint.0": "d(a**b)/da = b * a**(b-1) and d(a**b)/db = a**b * log(a).",
    "exercise.op-pow-value.hint.1": "The exponent's share uses the log of the base; a**b is "
    "out.data.",
    "exercise.op-pow-value.hint.2": "Or build it from ops you have: (other * self.log()).exp() is "
    "a**b for a > 0.",
    "exercise.backward.title": "backward(): topological order and +=",
    "exercise.backward.task": "Write Value.backward(): order the graph topologically, set "
    "self.grad = 1.0, and call each Value's _backward(), outputs before inputs. It is checked on "
    "a + a, on b = a + a; c = b + b, on the Stack Exchange graph (a.grad 25, b.grad 19), and two backward() calls on graphs that share their leaves "
    "(grads add up); a chain of 20,000 Values, deeper than a recursive sort can go, is an optional "
    "challenge.",
    "exercise.backward.hint.0": "A Value's _backward() may run only after every Value made from "
    "it has added its share to its grad: that is what the reversed topological order guarantees.",
    "exercise.backward.hint.1": "Build the order with a visited set that is local to backward(), "
    "never a global one, and call each _backward() exactly once.",
    "exercise.backward.hint.2": "Python stops recursion near 1,000 calls: build the order with a "
    "loop and a stack of your own.",
    "exercise.predict-shared.title": "predict the grads: a Value used more than once",
    "exercise.predict-shared.task": "The Stack Exchange question's graph: c = a + b, d = a * b, e "
    "= c + d, g = c * d, f = e + g with a = 2, b = 3. a and b, c and d each feed two Values: "
    "predict every +=, and see why a.grad ends at 25 and b.grad at 19.",
    "exercise.predict-shared.hint.0": "A Value used twice receives two contributions, one from "
    "each Value made from it: += adds them up.",
    "exercise.predict-shared.hint.1": "c's grad is only complete after both e and g have added "
    "theirs: g's share is d's data times g's grad.",
    "exercise.predict-shared.hint.2": "d.grad is 1 (from e) + c's data (from g) = 6.",
    "exercise.zero-grad.title": "zero_grad: the accumulation traps",
    "exercise.zero-grad.task": "Write three functions after the class: zero_grad(params) sets "
    "each parameter's grad to 0; zero_grad_all(root) sets the grad of every Value in root's graph "
    "to 0, so that root.backward() can run again on the same graph; train(params, loss_fn, steps, "
    "lr) runs the lecture's loop steps times: loss = loss_fn(), zero the grads, loss.backward(), "
    "p.data += -lr * p.grad.",
    "exercise.zero-grad.hint.0": "+= in every closure means grads add up over backward() calls: "
    "reset them before each call.",
    "exercise.zero-grad.hint.1": "In train(), loss_fn() rebuilds the graph every step, so zeroing "
    "the parameters is enough; a graph used twice needs every node zeroed, inner ones included.",
    "exercise.zero-grad.hint.2": "Zero before loss.backward(), not after it.",
    "exercise.softmax-nll.title": "softmax and the negative log likelihood",
    "exercise.softmax-nll.task": "The end of the lecture's exercise set: write softmax(logits), a "
    "list of exp(logit) / sum(exp(logits)), and nll(probs, target) = -log(probs[target]), with "
    "your Value's ops (exp, sum() through __radd__, /, log, -). The check compares each logit's "
    "grad with micrograd's, which is probs[i] - (1 if i == target else 0).",
    "exercise.softmax-nll.hint.0": "softmax divides the exp of each logit by the sum of all the "
    "exps: build both from your Value's ops (.exp(), sum(), /), never from .data, or the graph "
    "is cut.",
    "exercise.softmax-nll.hint.1": "sum() starts from the number 0: 0 + Value needs __radd__.",
    "exercise.softmax-nll.hint.2": "-x needs __neg__ (x * -1), and c / d needs __truediv__ (c * "
    "d**-1).",
    "exercise.neuron-mlp.title": "Neuron, Layer and MLP",
    "exercise.neuron-mlp.task": "Write Neuron(nin), Layer(nin, nout) and MLP(nin, nouts) as in "
    "the lecture: a Neuron has weights w (a list) and a bias b and computes act(sum(w*x) + b) "
    "with tanh or relu; parameters() lists w, then b; a Layer of one neuron returns that Value, "
    "not a list. The check compares MLP(2, [8, 8, 1])'s grads with micrograd's engine, then trains "
    "it a few steps on two moons, each step's loss against the engine's.",
    "exercise.neuron-mlp.hint.0": "Neuron: self.w = [Value(random.uniform(-1, 1)) for _ in "
    "range(nin)], and self.b likewise.",
    "exercise.neuron-mlp.hint.1": "sum((wi * xi for wi, xi in zip(self.w, x)), self.b) starts the "
    "sum at the bias; then .tanh().",
    "exercise.neuron-mlp.hint.2": "parameters(): w + [b] for a Neuron; a Layer joins its neurons' "
    "lists, an MLP its layers'.",
    # the GPT: `micrograd train --data names` and `micrograd sample` (micrograd/app/gpt_commands.py)
    "gpt.about_train": " With --data names it trains microgpt's GPT on {count:,} first names "
    "instead, and with --data FILE.txt on the file's lines (one document a line, any characters); "
    "it prints {samples} names it makes up, each marked new or in the training data.",
    "gpt.help_data": "; names: microgpt's GPT on {count:,} first names (shipped); a text "
    "file: the GPT on its lines. Data sets: {choices}",
    "gpt.help_steps": "; {steps} for names",
    "gpt.help_lr": "; {lr} decaying to 0 for names (Adam with microgpt's betas)",
    "gpt.help_sample": "print names made up by a GPT that `micrograd train` saved (--data names or "
    "a text file)",
    "gpt.about_sample": "Load a GPT saved by `micrograd train --data names` or `--data FILE.txt` "
    "(gpt.json) and print "
    "names it makes up, drawing one token at a time from softmax(logits / temperature).",
    "gpt.help_model": "the model file (micrograd-out/gpt.json after micrograd train --data names)",
    "gpt.help_n": "how many names (default: %(default)s)",
    "gpt.help_temperature": "divides the logits: lower is safer, higher more varied (default: "
    "%(default)s, microgpt's)",
    "gpt.help_seed": "seed for the draws (default: %(default)s, the train command's: the names it "
    "printed)",
    "gpt.out_step": "step {step}/{total}  loss {loss:.4f}",
    "gpt.out_compiling": "tracing and compiling the training step, once for each length of "
    "document: the first steps take seconds, the others milliseconds",
    "gpt.note_lr": "the loss is higher than at the start: the learning rate {lr} is likely too "
    "large (the default is {default})",
    "gpt.out_loss": "loss {first:.4f} at the first step, {last:.4f} on average over the last {n}",
    "gpt.out_sample": "sample {i:2d}: {name}",
    "gpt.empty_name": "(empty: the end was drawn first)",
    "gpt.out_new": "sample {i:2d}: {name}   new",
    "gpt.out_copy": "sample {i:2d}: {name}   in the training data",
    "gpt.out_copies": "{copies} of the {n} made-up names are documents it trained on, {new} are "
    "new (a model that learned its data by heart draws it back)",
    "gpt.note_long": "note: {long:,} of the {n:,} documents have {block} characters or more; with "
    "--block-size {block} the model learns only their first {block} and never where they end (the "
    "longest has {longest}; a larger --block-size, up to {most}, takes longer)",
    "gpt.help_size": "the GPT's {size} (default: {default}, microgpt's)",
    "gpt.err_data": "{text!r} is neither a data set ({choices}) nor a file",
    "gpt.err_data_file": "cannot train on {path}: {why}",
    "gpt.err_gpt_option": "{option} is a size of the GPT: it applies to --data names or a text "
    "file of documents, not to this MLP (its sizes are --hidden)",
    "gpt.err_heads": "--n-embd {n_embd} is not a multiple of --n-head {n}: each head takes "
    "n_embd / n_head of the embedding",
    "gpt.err_block": "--block-size {block} is more than {most}: drawing a name takes time that "
    "grows with the square of the block",
    "gpt.plot_loss": "loss of each step (one name)",
    "gpt.plot_mean": "mean of the last {n} steps",
    "gpt.plot_title": "{spec} on {docs:,} names",
    "gpt.plot_loss_documents": "loss of each step (one document)",
    "gpt.plot_title_documents": "{spec} on {docs:,} documents",
    "gpt.err_option": "{option} does not apply to --data names or a text file, which train "
    "microgpt's GPT (it takes --steps, --lr, --seed, --n-layer, --n-head, --n-embd, --block-size, "
    "--backend, --out, --no-plot, --quiet and --lang)",
    "gpt.err_diverged": "training diverged ({why}); try a smaller --lr",
    "gpt.err_no_model": "{path}: no such file; micrograd train --data names writes one "
    "(micrograd-out/gpt.json)",
    "gpt.err_bad_model": "not a GPT model file that micrograd can read: {why}",
    "gpt.help_attention": "also draw each head's attention weights on the first name into FILE "
    "(a PNG)",
    "gpt.out_attention": "wrote {path}: each head's attention weights on sample 1",
    "gpt.plot_attention_title": "each head's attention weights, reading {sequence} (· is BOS)",
    "gpt.plot_head": "layer {layer}, head {head}",
    "gpt.plot_attending": "position attending",
    "gpt.plot_attended": "position attended",
    "gpt.plot_weight": "attention weight",
    "gpt.group_qk": "q·k",
    "gpt.group_qk_ops": "q·k / √d for each key",
    "gpt.group_softmax": "softmax",
    "gpt.group_softmax_ops": "the scores → weights summing to 1",
    "gpt.group_sum": "Σ weights · values",
    "gpt.group_sum_ops": "the weighted sum of the values",
    "gpt.group_kv": "position {pos}: k, v",
    "gpt.group_kv_ops": "embedding, rmsnorm, wk, wv",
    "gpt.group_qkv": "position {pos}: q, k, v",
    "gpt.group_qkv_ops": "embedding, rmsnorm, wq, wk, wv",
    "gpt.stepper_intro": "A tiny GPT (block 3, n_embd 4, one head) reads {tokens}. y is the sum of "
    "the head's output at the last position, o.0 + ... + o.{last}; its backward pass goes through "
    "q·k, the softmax and the weighted sum of the values. Names: e embedding, x what the "
    "projections read, q query, k1.2 entry 2 of position 1's key, v value, s score, a attention "
    "weight, o output.",
    # the GPT track (micrograd/practice/reference/gpt.py): microgpt's Value, then its parts
    "exercise.local-grads.title": "microgpt's Value: stored local grads",
    "exercise.local-grads.task": "microgpt's Value keeps no closure: each op stores its inputs "
    "(children) and the local grad of its output with respect to each one (local_grads), numbers "
    "fixed when the op runs: Value(a + b, (self, other), (1, 1)). Write __add__ and __mul__ (a "
    "plain number on either side becomes a Value), __pow__ (by a number k), log, exp and relu, "
    "then backward(): a topological order, self.grad = 1, and for each Value, outputs before "
    "inputs, child.grad += local_grad * v.grad. The check reads the local grads each op stored, "
    "then runs backward() on the graphs of the backward() exercise against micrograd's engine.",
    "exercise.local-grads.hint.0": "Each op's local grads are the derivatives of the lecture's "
    "closures without the `* out.grad`: d(a * b)/da = b, d(x ** k)/dx = k * x ** (k - 1), "
    "d(exp x)/dx = exp x, d(log x)/dx = 1 / x, relu's is 1 where x > 0.",
    "exercise.local-grads.hint.1": "backward() is the lecture's: the same topological sort, "
    "reversed; where the lecture called v._backward(), loop over zip(v._children, "
    "v._local_grads) and add local_grad * v.grad to each child's grad.",
    "exercise.local-grads.hint.2": "+=, not =: a Value used twice (a * a, or reached by two "
    "paths) gets a share from each use.",
    "exercise.linear.title": "linear: a layer without a bias",
    "exercise.linear.task": "Write linear(x, w) as microgpt does: x is a list of n Values, w a "
    "list of m rows of n Values; return the m Values w[i] · x, the dot product of each row with "
    "x. The check compares the outputs and every input's grad with micrograd's engine, on "
    "matrices square and not.",
    "exercise.linear.hint.0": "One output per row of w: each is that row's dot product with x, a sum of "
    "w[i][j] * x[j] over j, with your Value's ops.",
    "exercise.linear.hint.1": "Keep everything a Value: a dot product made from .data has no graph behind it, "
    "and len(w) rows give len(w) outputs, whatever len(x) is.",
    "exercise.softmax.title": "softmax over a row of logits",
    "exercise.softmax.task": "Write softmax(logits) as microgpt does: the list of exp(z) / the "
    "sum of exp over all the logits. Subtracting the largest logit first (a plain number, "
    "max(z.data for z in logits)) keeps exp from overflowing and changes no number: with it or "
    "without it is right. The check runs rows of 1 to 5 logits, far apart too, and compares every "
    "logit's grad with micrograd's engine.",
    "exercise.softmax.hint.0": "The exps first, then their sum (one Value), then each exp divided "
    "by it; all with Value ops, never .data, except for the max you subtract.",
    "exercise.softmax.hint.1": "The max must be subtracted in the numerator and in the sum alike "
    "(it cancels only then): exps = [(z - top).exp() for z in logits].",
    "exercise.rmsnorm.title": "rmsnorm",
    "exercise.rmsnorm.task": "Write rmsnorm(x) as microgpt does: every x_i times (mean of the "
    "x_j ** 2 + 1e-5) ** -0.5. One scale made of all the elements, so each element's grad "
    "reaches every other: the check compares them with micrograd's engine, small inputs "
    "included, where the 1e-5 counts.",
    "exercise.rmsnorm.hint.0": "ms = sum(xi * xi for xi in x) / len(x): the mean of the squares, "
    "not the square of the mean.",
    "exercise.rmsnorm.hint.1": "scale = (ms + 1e-5) ** -0.5: the epsilon inside, the power -0.5 "
    "(one over the root mean square); then [xi * scale for xi in x].",
    "exercise.attention-head.title": "one causal attention head, with its cache",
    "exercise.attention-head.task": "Write attention_head(xs, wq, wk, wv): one head read token "
    "by token as microgpt reads it. For each vector x in xs, in order: q = linear(x, wq); its key "
    "linear(x, wk) and value linear(x, wv) appended to the cache first (a token sees itself and "
    "the tokens before it, never one after); the scores q · k / sqrt(d) for each key in the "
    "cache, d = len(q); the weights softmax(scores); the output, for each j, the sum over the "
    "cache of weight * value[j]. Return the outputs, one list of d Values per token. linear and "
    "softmax are in the file, as the reference writes them.",
    "exercise.attention-head.hint.0": "For each token, in order: its q, k and v (three linear calls); k and v into the "
    "cache; a score for each key in the cache; the softmax of the scores; the weighted sum of the "
    "cached values.",
    "exercise.attention-head.hint.1": "The key and the value join the cache before the scores, so the first token has "
    "one key to attend to, its own; later tokens are not in the cache yet, so none is seen.",
    "exercise.attention-head.hint.2": "Each score is q · k / sqrt(d), d = len(q); the softmax runs over the cache, "
    "one weight per token so far, and the output sums weight * value[j] over the cache.",
    "exercise.adam-step.title": "an Adam step, with bias correction",
    "exercise.adam-step.task": "Write adam_step(params, m, v, step, lr=0.01, beta1=0.85, "
    "beta2=0.99, eps=1e-8) as microgpt does: for each parameter p (index i), m[i] = beta1 * m[i] "
    "+ (1 - beta1) * p.grad, v[i] = beta2 * v[i] + (1 - beta2) * p.grad ** 2, m_hat = m[i] / (1 - "
    "beta1 ** (step + 1)), v_hat likewise, p.data -= lr * m_hat / (v_hat ** 0.5 + eps), then "
    "p.grad = 0. m and v are the caller's lists, kept between calls; step counts from 0. The "
    "check makes several calls in a row, then again from a fresh start.",
    "exercise.adam-step.hint.0": "m[i] and v[i] hold the running averages themselves, of the grad and of its "
    "square; the next call reads them there. m_hat and v_hat are only for this update.",
    "exercise.adam-step.hint.1": "The bias correction divides by 1 - beta ** (step + 1): step "
    "starts at 0, and the first call must already divide by 1 - beta.",
    "exercise.adam-step.hint.2": "Subtract the update, and set each p.grad to 0 once it is used.",
    "practice.todo.local-grads": "",
    "practice.todo.linear": "",
    "practice.todo.softmax": "",
    "practice.todo.rmsnorm": "",
    "practice.todo.attention-head": "",
    "practice.todo.adam-step": "",
    "practice.mistake.wrong-axis": "wrong-axis",
    "practice.mistake.no-scale": "no-scale",
    "practice.mistake.sees-future": "sees-future",
    "practice.mistake.cache-after": "cache-after",
    "practice.mistake.no-epsilon": "no-epsilon",
    "practice.mistake.mean-not-square": "mean-not-square",
    "practice.mistake.no-bias-correction": "no-bias-correction",
    "practice.mistake.moments-swapped": "moments-swapped",
    "practice.mistake.moments-not-kept": "moments-not-kept",
    "practice.mistake.state-kept": "state-kept",
    "practice.mistake.wrong-update": "wrong-update",
    "practice.gpt.forward": "`{call}{where}` is {found}; expected {expected}.",
    "practice.gpt.shape": "`{call}` gave {found} outputs; expected {expected}.",
    "practice.gpt.grad": "`{call}`: with upstream grads {upstream} on its outputs, `{leaf}.grad` "
    "is {found}; expected {expected}.",
    "practice.gpt.cut_number": "`{call}{where}` has the right number but is a plain {kind}, not a "
    "Value: no graph is behind it, so no grad flows back through it.",
    "practice.gpt.cut_leaf": "`{call}` has the right number, but its graph does not reach "
    "`{leaf}`, which it depends on: on the way a plain number (a .data, or a number written in) "
    "stands where a Value should, so no grad flows back to `{leaf}` from there.",
    "practice.gpt.linear_transposed": "These are the numbers of w's columns dotted with x: each "
    "output is a row of w (w[i]) times x.",
    "practice.gpt.softmax_sum_of_logits": "These are the numbers of exp(z) divided by the sum of "
    "the logits themselves: divide by the sum of their exps.",
    "practice.gpt.softmax_half_shifted": "These are the numbers of exp(z - max) over a sum of "
    "exp(z): subtract the max in the sum too, or nowhere.",
    "practice.gpt.softmax_no_exp": "These are the numbers of z / sum(z): softmax takes the exp of "
    "each logit first.",
    "practice.gpt.rmsnorm_no_eps": "These are the numbers of rmsnorm without the 1e-5: add it to "
    "the mean of the squares, inside the root.",
    "practice.gpt.rmsnorm_not_squared": "These are the numbers of the mean of x, not of x ** 2: "
    "square each element before averaging.",
    "practice.gpt.rmsnorm_sum": "These are the numbers of the sum of the squares, not their mean: "
    "divide by len(x).",
    "practice.gpt.rmsnorm_times_rms": "These are the numbers of x times the root mean square: the "
    "scale is its inverse, (ms + 1e-5) ** -0.5.",
    "practice.gpt.rmsnorm_eps_outside": "These are the numbers of x / (sqrt(ms) + 1e-5): the 1e-5 "
    "goes inside the root, (ms + 1e-5) ** -0.5.",
    "practice.gpt.attention_no_scale": "These are the numbers of the scores q · k without the "
    "division by sqrt(d).",
    "practice.gpt.attention_scale_d": "These are the numbers of q · k divided by d: the scale is "
    "sqrt(d).",
    "practice.gpt.attention_future": "These are the numbers of a head that sees every token, later "
    "ones too: token t may attend only to tokens 0 to t, the cache as it stands when t is read.",
    "practice.gpt.attention_cache_after": "This is what a head does when a token's key and value "
    "join the cache after it attends: append them first, so a token attends to itself too.",
    "practice.gpt.attention_axis": "These are the numbers of a softmax over the other axis (each "
    "key's scores normalised over the queries): each token's weights, over the cache, must sum "
    "to 1.",
    "practice.gpt.attention_keys_summed": "These are the numbers of the weights times the keys: "
    "the output sums the values.",
    "practice.gpt.adam_call": "{run}, the call with step {step} (grads {grads})",
    "practice.gpt.adam_run1": "Run 1",
    "practice.gpt.adam_run2": "Run 2, from a fresh start",
    "practice.gpt.adam_differs": "{where}: `{what}` is {found}; expected {expected}.",
    "practice.gpt.adam_passed": "Every number after {calls} calls in two runs matches: data, m, v, "
    "and the grads set to 0.",
    "practice.gpt.adam_kept_state": "Run 1 was right: this call depends on something an earlier "
    "run left behind (a mutable default, a global): adam_step may keep nothing but m and v, "
    "which the caller passes in.",
    "practice.gpt.adam_no_bias": "These are the numbers of Adam without the bias correction: "
    "divide m by 1 - beta1 ** (step + 1) and v by 1 - beta2 ** (step + 1).",
    "practice.gpt.adam_moments_swapped": "These are the numbers of m following the grad squared "
    "and v the grad: m is the mean of the grads, v of their squares.",
    "practice.gpt.adam_hats_swapped": "These are the numbers of the update v_hat / (sqrt(m_hat) + "
    "eps): it is m_hat / (sqrt(v_hat) + eps).",
    "practice.gpt.adam_not_kept": "These are the numbers of moments that start from 0 at every "
    "call: write them back into m[i] and v[i].",
    "practice.gpt.adam_power": "A bias correction by beta ** step does this: step counts from 0, "
    "so it is beta ** (step + 1).",
    "practice.gpt.adam_step_unused": "These are the numbers of the first call's bias correction at "
    "every call: it uses step.",
    "practice.gpt.adam_eps_inside": "These are the numbers of sqrt(v_hat + eps): eps is added "
    "after the root, sqrt(v_hat) + eps.",
    "practice.gpt.adam_sign": "These are the numbers of a step up the gradient: p.data -= the "
    "update.",
    "practice.gpt.adam_not_zeroed": "Everything else is right: set p.grad = 0 after the update, or "
    "the next backward() adds to the old grads.",
    "practice.gpt.op_forward": "`{what}` at {at} is {found}; expected {expected}.",
    "practice.gpt.op_counts": "`{what}` at {at} stores {children} children but local grads "
    "({stored}): one local grad per child.",
    "practice.gpt.op_no_children": "`{what}` at {at} does not record its inputs as children: "
    "backward() cannot reach them.",
    "practice.gpt.op_local": "`{what}` at {at} stores local grads ({stored}), which give d out / "
    "d ({leaves}) = {found}; expected {expected}.",
    "practice.gpt.bw_grad": "`{name}.grad` is {found}; expected {expected}.",
    "practice.gpt.bw_not_reversed": "Every graph's grads are those of the topological order "
    "walked inputs first: reverse it, so a Value passes its grad on only once it has all of it.",
    "practice.gpt.bw_bfs": "Every graph's grads are those of a breadth-first order from the "
    "output: a Value reached by a longer path gets the rest of its grad after it has passed it "
    "on; sort the graph topologically.",
    "practice.gpt.bw_preorder": "Every graph's grads are those of a depth-first order that adds "
    "a Value when it is first met (before its inputs): that is no topological order; add it after "
    "its inputs and reverse the list.",
    "practice.gpt.bw_by_data": "Every graph's grads are those of a visited set that compares "
    "Values by their numbers: two Values with equal data count as one.",
    "practice.gpt.bw_assign": "Every graph's grads are those of child.grad = ...: a Value used "
    "twice keeps only the last share; use +=.",
    "practice.gpt.bw_no_seed": "Every graph's grads are those of a backward() that never sets "
    "self.grad = 1: every share is then 0.",
    "practice.gpt.bw_no_upstream": "Every graph's grads are those of child.grad += local_grad "
    "without * v.grad: the chain rule multiplies by the grad that reached v.",
    "practice.gpt.bw_data": "Every graph's grads are those of local_grad * v.data: the chain rule "
    "multiplies by v.grad, not v's number.",
    "practice.gpt.linear_rows_of_x": "These are the numbers of one output per element of x: there "
    "is one per row of w (len(w) outputs).",
    "practice.gpt.linear_relu": "These are the numbers of each output through a relu: microgpt's "
    "linear is the plain product, w x (the MLP block adds its relu after it).",
    "practice.gpt.softmax_negated": "These are the numbers of exp(max - z), the softmax of -z: "
    "subtract the max from each logit, z - max.",
    "practice.gpt.rmsnorm_square_of_mean": "These are the numbers of the square of the mean: it is "
    "the mean of the squares, sum(xi * xi) / len(x).",
    "practice.gpt.rmsnorm_n_minus_1": "These are the numbers of a mean over len(x) - 1: rmsnorm "
    "divides by len(x).",
    "practice.gpt.rmsnorm_other_eps": "These are the numbers of rmsnorm with an epsilon of {eps}: "
    "microgpt's is 1e-5.",
    "practice.gpt.attention_scale_input": "These are the numbers of q · k divided by sqrt(len(x)), "
    "the input's size: d is the size of q (the head's).",
    "practice.gpt.alias": "`{call}`[{i}] and [{j}] are one and the same list: a list made once and "
    "filled again for each token shows the last token's numbers everywhere; make a new list per "
    "token.",
    "practice.gpt.adam_parens": "These are the numbers of (1 - beta) ** (step + 1): the bias "
    "correction is 1 - beta ** (step + 1), the power on beta alone.",
    "practice.gpt.adam_betas_swapped": "These are the numbers of beta1 and beta2 swapped: m decays "
    "with beta1 (0.85), v with beta2 (0.99).",
    "practice.gpt.bw_repeats": "Every graph's grads are those of a topological sort with no "
    "visited set: a Value reached by two paths is listed twice and passes its grad on twice.",
    "practice.gpt.op_swapped": "Each input got the other's local grad: d(a * b)/da is b.",
    "practice.track.lecture": "backward(), as the lecture builds it",
    "practice.track.gpt": "The GPT, as microgpt builds it: its Value, then its parts",
    "practice.gpt.op_changed_input": "`{what}` at {at} changed `{name}.data` to {found}: an op "
    "reads its inputs and makes a new Value; a later use of `{name}` would see the changed number.",
    "practice.gpt.op_value_grads": "`{what}` at {at} stores local grads of types {kinds}: a local "
    "grad is a number, fixed when the op runs (other.data, not other); a Value there makes every "
    "grad a Value with a graph of its own.",
    "practice.gpt.changed_data": "`{call}` changed `{leaf}.data`: a part reads its inputs' numbers "
    "and never writes them (in the GPT they are the model's weights).",
    "practice.gpt.changed_list": "`{call}` put something else at `{where}` of a list it was given "
    "while it still read that list: later reads see the new entry, not the input; build a new list.",
    "practice.gpt.state_kept": "`{call}` gave another answer the second time it ran: something is "
    "kept from one call to the next (a global list, a mutable default); a part must keep nothing "
    "between calls.",
    "practice.gpt.bw_not_topological": "Every graph's grads are those of an order that is not "
    "topological (a breadth-first walk from the output, or a depth-first one that lists a Value "
    "before its inputs, gives these): a Value passes its grad on before all of it has arrived.",
    "practice.gpt.bw_visits": "Every graph's grads are those of a walk that visits some Value the "
    "wrong number of times (twice where it is reached by two paths, or once for two Values with "
    "equal data): each Value must be listed exactly once.",
    "practice.gpt.adam_length": "{where}: `{what}` holds {found} numbers; expected {expected}, one per "
    "parameter.",
    "practice.gpt.op_number": "The same op on two Values runs: a plain number beside a Value must "
    "become a Value first (other = other if isinstance(other, Value) else Value(other)).",
    "exercise.gpt-loop.title": "microgpt's training step",
    "exercise.gpt-loop.task": "Write train_step(sd, params, tokens, m, v, step, num_steps) as "
    "microgpt trains: with a fresh cache per layer, read the document's tokens one at a time "
    "(gpt(sd, token, pos, keys, values) gives the logits of the next token) at n = "
    'min(block_size, len(tokens) - 1) positions, block_size = len(sd["wpe"]) (a longer document '
    "trains on its first ones); the loss is the mean over them of -log softmax(logits)[the next "
    "token]; then loss.backward() and adam_step at lr 0.01 * (1 - step / num_steps); return the "
    "loss's number. The file holds microgpt's model (init_model, gpt) and the parts before it. "
    "Once it passes, run the file: your step trains microgpt's model on 100 names to a mean loss "
    "below 2.6 (about 15 s).",
    "exercise.gpt-loop.hint.0": "n positions, n = len(tokens) - 1 (the last token has no next one); "
    "position pos predicts tokens[pos + 1]; the loss is the mean of the n losses.",
    "exercise.gpt-loop.hint.1": "backward() before adam_step, which reads the grads and sets them to "
    "0; the learning rate falls linearly, 0.01 * (1 - step / num_steps), and step goes to "
    "adam_step too.",
    "exercise.gpt-loop.hint.2": "keys and values are lists made in the step, one empty list per "
    "layer: a document starts with an empty cache, and nothing is kept from the last step.",
    "practice.todo.gpt-loop": "",
    "practice.gpt.loop_at": "{run}, `{call}`",
    "practice.gpt.loop_passed": "{steps} steps and the same steps again from the same weights "
    "match microgpt's, every number of them. Now run the file in a terminal (python "
    "practice/gpt-loop.py): "
    "your step trains microgpt's model on 100 names to a mean loss below 2.6.",
    "practice.gpt.loop_sum": "These are the numbers of the sum of the positions' losses: the loss "
    "is their mean.",
    "practice.gpt.loop_target": "These are the numbers of a loss that predicts the token just "
    "read: position pos predicts the next one, tokens[pos + 1].",
    "practice.gpt.loop_no_decay": "These are the numbers of a constant learning rate: it falls "
    "linearly, 0.01 * (1 - step / num_steps).",
    "practice.gpt.loop_decay_late": "These are the numbers of a learning rate one step ahead, "
    "0.01 * (1 - (step + 1) / num_steps): step counts from 0.",
    "practice.gpt.loop_adam_first": "These are the numbers of adam_step before loss.backward(): "
    "each update uses the last step's grads.",
    "practice.gpt.loop_step_zero": "These are the numbers of adam_step given step 0 every time: "
    "its bias correction needs the step.",
    "practice.gpt.loop_kept": "The first run was right: this step depends on something an earlier "
    "step left behind (a cache or list kept outside the function, a mutable default).",
    "practice.gpt.loop_number": "train_step returned a {kind}: return the loss's number, "
    "loss.data (the file's training prints it, and a Value would keep its whole graph alive).",
    "practice.gpt.linear_running": "These are the numbers of one running total for every row: "
    "output i adds up rows 0 to i; start each row's sum anew.",
    "practice.gpt.linear_all_pairs": "These are the numbers of every weight times every input, "
    "sum(row) * sum(x): pair row[j] with x[j] (zip), not all with all.",
    "practice.gpt.linear_first_twice": "These are the numbers of a sum that starts at row[0] * "
    "x[0] and then adds every product: the first is counted twice.",
    "practice.gpt.softmax_first_twice": "These are the numbers of a sum of the exps that starts "
    "at the first exp and then adds them all: the first is counted twice.",
    "practice.gpt.softmax_by_max": "These are the numbers of each exp divided by the largest exp: "
    "softmax divides by the sum of them all.",
    "practice.gpt.softmax_scaled": "These are the numbers of the logits divided by the max: the "
    "max is subtracted, z - max.",
    "practice.gpt.rmsnorm_no_root": "These are the numbers of (ms + 1e-5) ** -1: the scale is "
    "the inverse square root, ** -0.5.",
    "practice.gpt.rmsnorm_halved": "These are the numbers of (ms + 1e-5) ** -1 / 2, which Python "
    "reads as ((ms + 1e-5) ** -1) / 2: write ** -0.5, or ** (-1 / 2).",
    "practice.gpt.attention_scale_keys": "These are the numbers of q · k divided by the square "
    "root of the number of keys: the scale is sqrt(d), the size of q.",
    "practice.gpt.attention_latest_key": "These are the numbers of every score taken with the "
    "latest key: each key in the cache gets its own q · k.",
    "practice.gpt.adam_power_two": "These are the numbers of a bias correction by beta ** (step + "
    "2): step counts from 0, so it is beta ** (step + 1).",
    "practice.gpt.adam_raw_grad": "These are the numbers of an update by the grad itself: Adam "
    "steps by m_hat / (sqrt(v_hat) + eps).",
    "practice.gpt.adam_v_beta1": "These are the numbers of v_hat corrected with beta1: v's bias "
    "correction is 1 - beta2 ** (step + 1).",
    "practice.gpt.loop_short": "These are the numbers of one position too few: n = len(tokens) - 1, "
    "so the last one predicts the closing BOS.",
    "practice.gpt.loop_last_only": "These are the numbers of the last position's loss alone: the "
    "loss is the mean over all positions.",
    "practice.gpt.loop_sign": "These are the numbers of log p with no minus sign: the loss is "
    "-log p, which training makes smaller.",
    "practice.gpt.loop_uncapped": "This is what a step does that reads every token of a document "
    'longer than the block: there are len(sd["wpe"]) positions, n = min(block_size, len(tokens) - '
    "1).",
    "practice.gpt.loop_over_tokens": "These are the numbers of the losses' sum divided by the "
    "number of tokens: there is one loss per position, len(tokens) - 1 of them.",
    # ---- the bridge from scalars to tensors (micrograd.teach.bridge, micrograd bridge)
    "bridge.head": "{nodes} scalar nodes of the traced graph become {ops} array operations "
    "({matmuls} of them matrix products), batch first: B rows at once.",
    "bridge.leaves": "Tensors the graph reads:",
    "bridge.ops": "Array operations, in order (each reads only those above it):",
    "bridge.params": "parameters {about}",
    "bridge.inputs": "inputs {about} of each row",
    "bridge.consts": "constants {about}",
    "bridge.line": "scalar nodes: {count} ({ops})",
    "bridge.line_units": "scalar nodes: {count} ({ops}) of {units}",
    "bridge.unused": "{count} scalar nodes that no output needs are traced but not computed.",
    "bridge.help": "show which scalar operations of a model became which array operation",
    "bridge.about": "Trace one training step of a model on Values and print the array "
    "operations the numpy replay runs instead, one line each in PyTorch's notation (a batch of "
    "B rows), with the shape and the scalar nodes each stands for. By default the demo's model.",
    "bridge.help_model": "a saved model (model.json, or gpt.json from train --data names)",
    "bridge.help_digits": "the digits model: MLP(64, [hidden..., 10]), softmax cross-entropy",
    "bridge.help_gpt": "microgpt's GPT (the names' 27 tokens, its default sizes)",
    "bridge.help_hidden": "hidden widths of the MLP, e.g. 4,3 (default: the demo's)",
    "bridge.help_length": "positions of the GPT's step, at most its block size (default: %(default)s)",
    "bridge.help_write": "write the operations as a numpy script that computes the loss of a few "
    "rows and its gradient by hand, with no micrograd",
    "bridge.help_torch": "with --write: a PyTorch script instead (autograd does the backward pass)",
    "bridge.wrote": "wrote {path}: `python {path}` prints the mean loss of its {rows} rows and each "
    "parameter tensor's gradient, as micrograd computes them",
    "bridge.help_seed": "seed of a new model's weights (default: %(default)s): the same seed "
    "writes the same numbers into the numpy and the PyTorch script",
    "bridge.err_hidden": "--hidden sets the widths of a new MLP; a GPT (--gpt) or a saved model "
    "(--model) has its own",
    "bridge.err_torch": "--torch chooses the language of the script that --write writes: give "
    "--write FILE.py too",
}
