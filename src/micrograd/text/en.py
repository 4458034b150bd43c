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
    "pg_why_zero": "loss = max(0, 1 - y·score) = max(0, 1 - ({y})·{score}) = {loss}: this point "
    "is on its side with a margin, so it sends no gradient back and every grad below stays 0. "
    "Click a ringed point to see one that teaches the model.",
    "pg_why_active": "loss = max(0, 1 - y·score) = max(0, 1 - ({y})·{score}) = {loss} > 0: this "
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
    "quiz_score": "{right} of {asked} right at the first try",
    # the stepper's neuron view: an MLP's neurons, one box each
    "neuron": "neuron",
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
    # ---- the command's help and the lines demo and train print
    "cli.about_micrograd": "A tiny autograd engine: train, draw and explain.",
    "cli.help_version": "show program's version number and exit",
    "cli.help_demo": "train MLP(2, {points_sizes}) on two moons, the original's demo",
    "cli.about_demo": "Train MLP(2, {points_sizes}) on two moons (SGD, hinge loss), print the "
    "accuracies and write model.json, decision_boundary.png and loss.png.",
    "cli.help_train": "train a classifier with your choices of data, model and optimizer",
    "cli.about_train": "Train an MLP classifier on a toy 2-D data set.",
    "cli.help_out": "folder for model.json and the pictures (default: %(default)s)",
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
}
