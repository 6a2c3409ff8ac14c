"""``mslab.widgets``: the notebook views (the lab layer's ``mslab.lab.widgets``, under its short public name)."""
from mslab.lab.widgets import *
from mslab.lab.widgets import __all__
