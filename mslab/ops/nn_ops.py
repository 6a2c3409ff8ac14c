"""Neural-network kernels (softmax, cross-entropy, convolution, pooling, ...): compute, infer, bprop."""

__all__ = []
