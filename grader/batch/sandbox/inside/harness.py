"""What a child of the zygote runs once its walls stand (see zygote.py): the learner's
cells and calls for one exercise, or the oracle's reference pieces for one learner child.
Standalone: loaded by the zygote inside the sandbox, with frames.py and wire.py."""
import copy
import os
import sys
import traceback

frames = sys.modules["_grader_frames"]
wire = sys.modules["_grader_wire"]
# the child's descriptors: 0 /dev/null, 1 and 2 its output, then these
LOG_FD, JOB_FD, RESULT_FD, CALL_FD, ANSWER_FD = 3, 4, 5, 6, 7
MAX_CALL_BLOB = 64 * 2**20
# MemoryError too: the oracle's child has a learner child's limits, and running out of them on the
# learner's inputs is the learner's own "ran out of memory"
BUILTIN_ERRORS = {e.__name__: e for e in (ValueError, TypeError, IndexError, KeyError, ZeroDivisionError,
                                          AttributeError, ArithmeticError, LookupError, OverflowError,
                                          MemoryError)}


def read_job(setup):
    got = frames.read_frame(JOB_FD, frames.MAX_RESULT_BYTES)
    os.close(JOB_FD)
    tree, blob = got
    load = wire.blob_loader(blob, budget=len(blob) + 1)
    return tree, load


# ----------------------------------------------------------------- grading one exercise
def grade(setup, request):
    job, load = read_job(setup)
    cases = [wire.decode(t, load, setup["config_type"]) for t in job["cases"]]
    namespace = {"__name__": "__main__"}
    proxies = {name: piece_proxy(name, setup["config_type"]) for name in job.get("uses", [])}
    import _grader_hook

    own = setup["own"]
    _grader_hook.close_doors(setup["read_roots"] + [own], own, setup["closed_modules"], setup["hidden"])
    restore = builtins_keeper()
    errors = run_cells(job["cells"], namespace, restore)
    fn = namespace.get(job["function"])
    send_result({"cell_errors": errors, "found": callable(fn)})
    if callable(fn):
        namespace.update(proxies)
        for args in cases:
            blob = bytearray()
            tree = call(fn, args, wire.Encoder(None, blob=blob))
            restore()
            send_result({"answer": tree}, blob)


def send_result(tree, blob=b""):
    frames.write_all(RESULT_FD, frames.frame(tree, blob))


def piece_proxy(name, config_type):
    """The course's ``name``, answered by the oracle: arrays in, arrays out."""
    write_all, frame, read_frame, Encoder, decode = (frames.write_all, frames.frame, frames.read_frame,
                                                     wire.Encoder, wire.decode)
    blob_loader, errors, FrameError = wire.blob_loader, BUILTIN_ERRORS, frames.FrameError

    def proxy(*args, **kwargs):
        blob = bytearray()
        enc = Encoder(None, blob=blob)
        write_all(CALL_FD, frame({"fn": name, "args": enc(list(args)), "kwargs": enc(kwargs)}, blob))
        try:
            got = read_frame(ANSWER_FD, MAX_CALL_BLOB)
        except FrameError:
            got = None
        if got is None:
            raise RuntimeError(f"the course's `{name}`, used while grading this exercise, did not answer")
        tree, blob = got
        if "raised" in tree:
            raised = tree["raised"]
            raise errors.get(raised.get("type"), RuntimeError)(str(raised.get("message", ""))[:2000])
        return decode(tree.get("value"), blob_loader(blob), config_type)

    proxy.__name__ = proxy.__qualname__ = name
    proxy.__doc__ = f"The course's {name} (answered outside this process)."
    return proxy


def short_error(exc, limit=400):
    try:
        message = str(exc)[:limit]
    except Exception:
        message = "<unreadable message>"
    if isinstance(exc, OSError) and exc.errno == 27:  # EFBIG: the file-size rlimit
        message = "printed or wrote far too much output (output limit reached)"
    if isinstance(exc, MemoryError):
        message = "ran out of memory (the grader's memory limit was reached)"
    return {"type": type(exc).__name__, "bases": [t.__name__ for t in type(exc).__mro__],
            "message": message, "own": raised_by_a_check(exc)}


def raised_by_a_check(exc):
    """As judging/outcomes.raised_by_a_check (this file imports nothing of the grader): a raise
    or assert statement outside Python's and the libraries' code."""
    import dis
    import sysconfig

    tb = exc.__traceback__
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    code = tb.tb_frame.f_code
    libraries = tuple({sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib", "purelib", "platlib")})
    statement = 0 <= tb.tb_lasti < len(code.co_code) and code.co_code[tb.tb_lasti] == dis.opmap["RAISE_VARARGS"]
    return statement and not code.co_filename.startswith(libraries)


def learner_line(exc):
    """Line number inside the learner's cell, for feedback."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename.startswith("<cell"):
            return frame.lineno
    return None


def run_cells(cells, namespace, restore):
    errors = []
    for cell in cells:
        try:
            exec(compile(cell["source"], f"<cell {cell['index'] + 1}>", "exec"), namespace)
        except (Exception, SystemExit) as exc:  # one broken cell must not stop the others
            err = short_error(exc)
            err["cell"], err["line"] = cell["index"] + 1, learner_line(exc)
            errors.append(err)
        finally:
            restore()
    return errors


def builtins_keeper():
    """Learner code may patch builtins; the harness puts them back after each call."""
    import builtins

    saved = dict(builtins.__dict__)

    def restore():
        builtins.__dict__.clear()
        builtins.__dict__.update(saved)

    return restore


def call(fn, args, encode):
    same_value = wire.same_value
    pristine = copy.deepcopy(args)
    try:
        value = fn(**args)
    except NotImplementedError:
        return {"not_implemented": True}
    except (Exception, SystemExit) as exc:
        return {"raised": short_error(exc)}
    changed = [k for k in pristine if not same_value(args.get(k), pristine[k])]
    if changed:
        return {"changed_inputs": changed[:10]}
    try:
        return {"value": encode(value)}
    except Exception as exc:
        return {"unencodable": short_error(exc)}


# ----------------------------------------------------------------- the oracle
def serve_oracle(setup):
    """The reference pieces of one exercise, answering one learner child's calls."""
    job, _ = read_job(setup)
    pieces = {}
    for piece in job["pieces"]:
        namespace = {"__name__": "reference_pieces"}
        exec(compile(piece["source"], "<reference pieces>", "exec"), namespace)
        pieces.update({name: namespace[fn] for name, fn in piece["exports"].items()})
    config_type = setup["config_type"]
    while True:
        try:
            got = frames.read_frame(CALL_FD, MAX_CALL_BLOB)
        except frames.FrameError as exc:
            reply = {"raised": {"type": "ValueError", "message": str(exc)}}
            frames.write_all(ANSWER_FD, frames.frame(reply))
            return
        if got is None:
            return
        tree, blob = got
        frames.write_all(ANSWER_FD, answer_call(pieces, tree, blob, config_type))


def answer_call(pieces, tree, blob, config_type):
    fn = pieces.get(tree.get("fn")) if isinstance(tree, dict) else None
    if fn is None:
        return frames.frame({"raised": {"type": "RuntimeError", "message": "no such piece"}})
    load = wire.blob_loader(blob, budget=len(blob) + 1)
    args = wire.decode(tree.get("args"), load, config_type)
    kwargs = wire.decode(tree.get("kwargs"), load, config_type)
    bad = next((x for x in [*(args if isinstance(args, list) else [args]),
                            *(kwargs.values() if isinstance(kwargs, dict) else [kwargs])]
                if isinstance(x, wire.Unsupported)), None)
    if bad is not None or not isinstance(args, list) or not isinstance(kwargs, dict):
        what = bad.type_name if bad is not None else "arguments"
        return frames.frame({"raised": {"type": "TypeError", "message":
                                        f"the course's `{tree.get('fn')}` takes NumPy arrays and "
                                        f"plain numbers here, not a {what}"}})
    try:
        value = fn(*args, **kwargs)
    except Exception as exc:
        return frames.frame({"raised": {"type": type(exc).__name__, "message": str(exc)[:2000]}})
    out = bytearray()
    return frames.frame({"value": wire.Encoder(None, blob=out)(value)}, out)
