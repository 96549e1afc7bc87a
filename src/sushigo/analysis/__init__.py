"""Analysis of decisions: what each legal action was worth, from the deciding seat's view alone.

:func:`~sushigo.analysis.evaluate.evaluate_decision` is the core: the expected
final score margin (and win share) of every legal action of one decision,
with standard errors, estimated by playing out games sampled from the seat's
view.
"""

from sushigo.analysis.evaluate import DEFAULT_SAMPLES, ActionValue, DecisionEvaluation, evaluate_decision

__all__ = ["DEFAULT_SAMPLES", "ActionValue", "DecisionEvaluation", "evaluate_decision"]
