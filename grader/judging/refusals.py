"""Diagnoses of the rules about errors: what the learner's function did on the inputs an
exercise says to refuse, and on the inputs it says to accept (diagnoses.py runs these).

Every name here says what the function was seen doing, told by the case's own `about` (safe
to show: it never holds a hidden input's numbers), so it is true of any answer it is given
to: a value returned where an error was asked for, NumPy's crash instead of a check, another
exception type, a message that names nothing, a valid input refused by the learner's own
check. The message's missing words stay in the failure's own line (compare.py), where the
batch words a hidden case by its kind.
"""
from __future__ import annotations

from .outcomes import NO_ANSWER, Raised
from .compare import MAX_RAISE_MESSAGE



def refusals(exercise, cases, answers, expected, failed):
    """Every failing case is one that must raise: what came instead, one name per kind of
    reply, naming the inputs it came on."""
    if not failed or not all(cases[i].raises for i in failed):
        return None
    if any(isinstance(answers[i], NO_ANSWER) for i in failed):
        return None
    kinds: dict[str, list] = {}
    for i in failed:
        kinds.setdefault(_kind(cases[i], answers[i]), []).append(cases[i])
    return [_say(kind, found) for kind, found in kinds.items()]


def _kind(case, answer) -> str:
    if not isinstance(answer, Raised) or answer.own is False:
        return "not refused"   # an answer, or NumPy's own crash: no check of the learner's met it
    if answer.type_name == "AssertionError":
        return "assert"
    if answer.type_name != case.raises:
        return "type"
    return "too long" if len(answer.message) > MAX_RAISE_MESSAGE else "unnamed"


def _abouts(cases) -> str:
    """The kinds of input, each once, one left out when another one starts with it."""
    abouts = []
    for c in cases:
        about = c.about or "an input the exercise says to refuse"
        if about not in abouts:
            abouts.append(about)
    kept = [a for a in abouts if not any(b != a and a.startswith(b) for b in abouts)]
    if len(kept) > 2:   # a name, not a list: the failures list every input
        return f"{kept[0]} and {len(kept) - 1} other inputs the exercise says to refuse"
    return " or ".join(kept)


def _say(kind: str, cases) -> tuple[str, str]:
    about, want = _abouts(cases), cases[0].raises
    if kind == "not refused":
        return (f"{about} not refused",
                f"Given {about}, your function returns an answer or fails inside NumPy, where the "
                f"exercise asks for a {want}: check that input before computing, and raise "
                f"{want}(...) with a message that names the values involved.")
    if kind == "assert":
        return (f"assert used for {about} instead of raising {want}",
                f"An assert is not a {want} (and `python -O` removes it): write "
                f"`if ...: raise {want}(...)` with a message that names the values involved.")
    if kind == "type":
        return (f"another exception than {want} raised for {about}",
                f"The exercise asks for {want} itself: raise {want}(...) with a message that names "
                "the values involved.")
    if kind == "too long":
        return (f"the error for {about} is too long",
                f"Say what was wrong in one sentence of at most {MAX_RAISE_MESSAGE} characters.")
    return (f"the error for {about} leaves out what it should name",
            f"Your {want} is raised where it should be, but its message leaves out what was wrong: "
            "put the numbers or names the exercise's text asks for in it (an f-string).")


def valid_input_refused(exercise, cases, answers, expected, failed):
    """Every failing case is a valid input that the learner's own check refused (a raise
    statement of theirs, not a crash), and some valid input passed: a check too strict."""
    values = [i for i, c in enumerate(cases) if not c.raises]
    wrong = [i for i in failed if not cases[i].raises]
    if not wrong or len(wrong) == len(values) or set(failed) - set(wrong):
        return None
    if not all(isinstance(answers[i], Raised) and answers[i].own for i in wrong):
        return None
    abouts = sorted({cases[i].about for i in wrong})
    what = abouts[0] if len(abouts) == 1 and abouts[0] else "an input the exercise allows"
    return [(f"{what} refused",
             f"Your own check raises {answers[wrong[0]].type_name} on {what}, which the exercise "
             "accepts: look at the check's comparison (> or >=, the limit it uses).")]


def valid_input_crashed(exercise, cases, answers, expected, failed):
    """Every failing case is a valid input of one or two kinds (the cases' `about`), on which the
    function crashed inside NumPy or Python, and some valid input passed: that kind not handled."""
    values = [i for i, c in enumerate(cases) if not c.raises]
    wrong = [i for i in failed if not cases[i].raises]
    if not wrong or len(wrong) == len(values) or set(failed) - set(wrong):
        return None
    if not all(isinstance(answers[i], Raised) and answers[i].own is False and cases[i].about for i in wrong):
        return None
    abouts = sorted({cases[i].about for i in wrong})
    if len(abouts) > 2:
        return None
    what = " or ".join(abouts)
    return [(f"{what} not handled",
             f"Your function is right on the other tests but crashes ({answers[wrong[0]].type_name}, "
             f"inside NumPy or Python) on {what}, which the exercise accepts: follow that input "
             "through your code and handle it.")]
