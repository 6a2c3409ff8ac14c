"""``sync_pipeline_shared_parameters(net)``: in pipeline parallelism, make stages agree on shared weights.

With one process there is a single pipeline stage, so there is nothing to synchronise: MindSpore 2.10 on
CPU returns None and leaves the parameters as they are (observed), and so does mslab.
"""

__all__ = ["sync_pipeline_shared_parameters"]


def sync_pipeline_shared_parameters(net):
    """Does nothing on one process (a single pipeline stage holds every parameter); returns None."""
    del net  # one stage: nothing to send to other stages
