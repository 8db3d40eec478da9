"""The answers judged: a function called on fresh copies of a case's arguments, its
result sanitised to plain data (wire.sanitise), or what came instead (outcomes.py).

check() calls the learner's function here and, once per kernel, the reference and each
catalogued mistake; the batch grader calls the reference and the mistakes here (the
learner's answers come from the sandbox); the release stores the reference's and the
mistakes' answers to the public cases. Statistically judged answers (stats.init_judge)
are kept as the summaries the judge compares.
"""
from __future__ import annotations

import copy

from .outcomes import ChangedInputs, raised_from
from .registry import Case, Exercise
from .stats import init_judge, summaries
from .wire import same_value, sanitise


def call_answer(fn, case: Case, make_config=None):
    """Call fn on fresh copies of the case's arguments; return a sanitised answer."""
    args = copy.deepcopy(case.args)
    try:
        result = fn(**args)
    except Exception as exc:
        return raised_from(exc)
    changed = [k for k in case.args if not same_value(args.get(k), case.args[k])]
    if changed:
        return ChangedInputs(tuple(changed))
    return sanitise(result, make_config)


def mistake_answers_for(exercise: Exercise, cases) -> dict[str, list]:
    return {m.name: _for_judge(exercise, [call_answer(m.variant, c) for c in cases])
            for m in exercise.mistakes}


def reference_answers(exercise: Exercise, cases) -> list:
    return _for_judge(exercise, [call_answer(exercise.reference, c) for c in cases])


def _for_judge(exercise: Exercise, answers: list) -> list:
    """Statistically judged answers are kept as the statistics the judge compares."""
    return summaries(answers) if exercise.judge is init_judge else answers
