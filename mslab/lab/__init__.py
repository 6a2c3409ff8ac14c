"""What exists to teach: step-through sessions and their stages, value sources, viz and widgets.

``plain()`` (``mslab.fast.plain``) runs a block without the speed layer: the plain engine the lessons walk.
"""
from mslab.fast import plain

__all__ = ["plain"]
