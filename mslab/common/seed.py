"""``mindspore.common.seed``: set_seed / get_seed (defined in ``mslab.core.seed``)."""
from mslab.core.seed import get_seed, set_seed

__all__ = ["set_seed", "get_seed"]
