"""Functional forms of the neural-network kernels in ``nn_ops`` (``ops.softmax``, ``ops.conv2d``, ...)."""
