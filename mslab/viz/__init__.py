"""``mslab.viz``: pictures of graphs (the lab layer's ``mslab.lab.viz``, under its short public name)."""
from mslab.lab.viz import *
from mslab.lab.viz import __all__
