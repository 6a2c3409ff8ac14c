"""MindSpore 2.10's random initial values on the CPU, reproduced in numpy: its Philox stream and distributions.

MindSpore's initialisers (``mindspore.common.initializer``) take one 64-bit seed from numpy's global generator
(``np.random.randint(1, 1 << 63, dtype=np.int64)``) per array and fill the array in C++ from a Philox4x32-10
counter-based generator (key = the seed's two 32-bit halves, counter = (block, 0, the same halves)); each
distribution turns the stream's 32-bit words into numbers, computing in double and rounding to float32:

- uniform(a, b): ``s = word / 2**32``, ``(b - a) * s + a`` (a and b rounded to float32 first);
- normal(mean, sigma): Box-Muller on pairs of words, ``u = (word & 0x7fffff) / 2**23`` (at least 1e-7),
  ``x = sqrt(-2 log u1) * sigma``, ``y = 2 * 3.1415926f * u2``, outputs ``mean + x cos y`` then ``mean + x sin y``;
- truncated_normal(a, b, mean, sigma): the inverse CDF, ``erfc`` at the bounds and Boost's rational
  approximation of ``erfc^-1``, one word per number.

Splitting the work over threads does not change the numbers (each task skips to its place in the stream), so
these functions return exactly MindSpore's float32 values (checked against ``mindspore._c_expression``'s
``_random_uniform``, ``_random_normal`` and ``_truncated_normal`` on 2.10 CPU, over 100,000 numbers each).
"""
import math

import numpy as np

__all__ = ["philox_words", "uniform", "normal", "truncated_normal"]

# Philox4x32's multipliers and key increments (Salmon et al. 2011), as MindSpore's random.h names them
M0, M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
K0, K1 = np.uint32(0x9E3779B9), np.uint32(0xBB67AE85)
MASK = np.uint64(0xFFFFFFFF)


def philox_words(seed, n):
    """The first ``n`` 32-bit words of MindSpore's Philox4x32-10 stream for a 64-bit ``seed``."""
    seed = int(seed) & (2**64 - 1)
    lo, hi = seed & 0xFFFFFFFF, seed >> 32
    blocks = (n + 3) // 4
    idx = np.arange(blocks, dtype=np.uint64)
    # counter = (c0, c1, lo, hi) + block index carried through c0 -> c1 -> c2 -> c3
    c0 = (idx & MASK).astype(np.uint32)
    c1 = (idx >> np.uint64(32)).astype(np.uint32)
    c2 = np.full(blocks, lo, np.uint32)
    c3 = np.full(blocks, hi, np.uint32)
    k0, k1 = np.uint32(lo), np.uint32(hi)
    with np.errstate(over="ignore"):
        for r in range(10):
            t0 = M0 * c0.astype(np.uint64)
            t1 = M1 * c2.astype(np.uint64)
            l0, h0 = (t0 & MASK).astype(np.uint32), (t0 >> np.uint64(32)).astype(np.uint32)
            l1, h1 = (t1 & MASK).astype(np.uint32), (t1 >> np.uint64(32)).astype(np.uint32)
            c0, c1, c2, c3 = h1 ^ c1 ^ k0, l1, h0 ^ c3 ^ k1, l0
            if r < 9:
                k0 = np.uint32(k0 + K0)
                k1 = np.uint32(k1 + K1)
    out = np.stack([c0, c1, c2, c3], axis=1).ravel()
    return out[:n]


def uniform(seed, n, a, b):
    """``n`` float32 numbers in [a, b), as MindSpore's ``_random_uniform``."""
    a, b = float(np.float32(a)), float(np.float32(b))
    s = philox_words(seed, n).astype(np.float64) / 2.0**32
    return ((b - a) * s + a).astype(np.float32)


def normal(seed, n, mean, sigma):
    """``n`` float32 numbers from N(mean, sigma^2), as MindSpore's ``_random_normal``."""
    m = n + (n % 2)
    w = philox_words(seed, m).reshape(-1, 2)
    u = (w & np.uint32(0x7FFFFF)).astype(np.float64) / 2.0**23
    u = np.maximum(u, float(np.float32(1e-7)))
    u1, u2 = u[:, 0], u[:, 1]
    mean, sigma = float(np.float32(mean)), float(np.float32(sigma))
    x = np.sqrt(-2.0 * np.log(u1)) * sigma
    y = 2.0 * float(np.float32(3.1415926)) * u2
    out = np.stack([mean + x * np.cos(y), mean + x * np.sin(y)], axis=1).ravel()
    return out[:n].astype(np.float32)


def _F(v):
    return float(np.float32(v))  # a C++ float constant, used in double arithmetic


def _poly(coefs, x):
    """Horner's rule, lowest coefficient first (Boost's evaluate_polynomial)."""
    s = np.full_like(x, coefs[-1])
    for c in reversed(coefs[:-1]):
        s = s * x + c
    return s


# Boost's rational approximations of erf^-1 (boost/math/special_functions/detail/erf_inv.hpp), by range
_P1 = [-0.000508781949658280665617, -0.00836874819741736770379, 0.0334806625409744615033,
       -0.0126926147662974029034, -0.0365637971411762664006, 0.0219878681111168899165,
       0.00822687874676915743155, -0.00538772965071242932965]
_Q1 = [1.0, -0.970005043303290640362, -1.56574558234175846809, 1.56221558398423026363, 0.662328840472002992063,
       -0.71228902341542847553, -0.0527396382340099713954, 0.0795283687341571680018, -0.00233393759374190016776,
       0.000886216390456424707504]
_P2 = [-0.202433508355938759655, 0.105264680699391713268, 8.37050328343119927838, 17.6447298408374015486,
       -18.8510648058714251895, -44.6382324441786960818, 17.445385985570866523, 21.1294655448340526258,
       -3.67192254707729348546]
_Q2 = [1.0, 6.24264124854247537712, 3.9713437953343869095, -28.6608180499800029974, -20.1432634680485188801,
       48.5609213108739935468, 10.8268667355460159008, -22.6436933413139721736, 1.72114765761200282724]
_TAIL = [  # (x bound, offset, Y, P, Q)
    (3.0, 1.125, 0.807220458984375,
     [-0.131102781679951906451, -0.163794047193317060787, 0.117030156341995252019, 0.387079738972604337464,
      0.337785538912035898924, 0.142869534408157156766, 0.0290157910005329060432, 0.00214558995388805277169,
      -0.679465575181126350155e-6, 0.285225331782217055858e-7, -0.681149956853776992068e-9],
     [1.0, 3.46625407242567245975, 5.38168345707006855425, 4.77846592945843778382, 2.59301921623620271374,
      0.848854343457902036425, 0.152264338295331783612, 0.01105924229346489121]),
    (6.0, 3.0, 0.93995571136474609375,
     [-0.0350353787183177984712, -0.00222426529213447927281, 0.0185573306514231072324, 0.00950804701325919603619,
      0.00187123492819559223345, 0.000157544617424960554631, 0.460469890584317994083e-5,
      -0.230404776911882601748e-9, 0.266339227425782031962e-11],
     [1.0, 1.3653349817554063097, 0.762059164553623404043, 0.220091105764131249824, 0.0341589143670947727934,
      0.00263861676657015992959, 0.764675292302794483503e-4]),
    (18.0, 6.0, 0.98362827301025390625,
     [-0.0167431005076633737133, -0.00112951438745580278863, 0.00105628862152492910091, 0.000209386317487588078668,
      0.149624783758342370182e-4, 0.449696789927706453732e-6, 0.462596163522878599135e-8,
      -0.281128735628831791805e-13, 0.99055709973310326855e-16],
     [1.0, 0.591429344886417493481, 0.138151865749083321638, 0.0160746087093676504695, 0.000964011807005165528527,
      0.275335474764726041141e-4, 0.282243172016108031869e-6]),
    (44.0, 18.0, 0.99714565277099609375,
     [-0.0024978212791898131227, -0.779190719229053954292e-5, 0.254723037413027451751e-4, 0.162397777342510920873e-5,
      0.396341011304801168516e-7, 0.411632831190944208473e-9, 0.145596286718675035587e-11,
      -0.116765012397184275695e-17],
     [1.0, 0.207123112214422517181, 0.0169410838120975906478, 0.000690538265622684595676,
      0.145007359818232637924e-4, 0.144437756628144157666e-6, 0.509761276599778486139e-9]),
    (math.inf, 44.0, 0.99941349029541015625,
     [-0.000539042911019078575891, -0.28398759004727721098e-6, 0.899465114892291446442e-6,
      0.229345859265920864296e-7, 0.225561444863500149219e-9, 0.947846627503022684216e-12,
      0.135880130108924861008e-14, -0.348890393399948882918e-21],
     [1.0, 0.0845746234001899436914, 0.00282092984726264681981, 0.468292921940894236786e-4,
      0.399968812193862100054e-6, 0.161809290887904476097e-8, 0.231558608310259605225e-11]),
]


def _erf_inv_imp(p, q):
    """Boost's erf_inv_imp for double, as MindSpore's TruncatedNormal copies it (p = 1 - q)."""
    with np.errstate(all="ignore"):
        m1 = p <= 0.5
        g = p * (p + 10.0)
        out = np.where(m1, g * _F(0.0891314744949340820313) + g * (_poly(_P1, p) / _poly(_Q1, p)), 0.0)
        m2 = ~m1 & (q >= 0.25)
        g2 = np.sqrt(-2.0 * np.log(q))
        xs = q - 0.25
        out = np.where(m2, g2 / (_F(2.249481201171875) + _poly(_P2, xs) / _poly(_Q2, xs)), out)
        x = np.sqrt(-np.log(q))
        done = m1 | m2
        for bound, off, y, pc, qc in _TAIL:
            m = ~done & (x < bound)
            xs = x - off
            out = np.where(m, _F(y) * x + (_poly(pc, xs) / _poly(qc, xs)) * x, out)
            done = done | m
    return out


def truncated_normal(seed, n, a, b, mean, sigma):
    """``n`` float32 numbers from N(mean, sigma^2) cut to [a, b], as MindSpore's ``_truncated_normal``."""
    a, b, mean, sigma = _F(a), _F(b), _F(mean), _F(sigma)
    root2 = _F(1.4142135)
    alpha, beta = (a - mean) / sigma, (b - mean) / sigma
    cdf_a, cdf_b = (math.erfc(-(v / root2)) / 2.0 for v in (alpha, beta))
    w = philox_words(seed, n).astype(np.float64)
    u = w / 2.0**32
    u = np.where(u >= 1, np.nextafter(1.0, 0.0), u)
    p = cdf_a + u * (cdf_b - cdf_a)
    z = 2.0 * p
    z = np.where(z <= 0, float(np.nextafter(np.float32(0), np.float32(2))), z)
    z = np.where(z >= 2.0, float(np.nextafter(np.float32(2), np.float32(0))), z)
    hi = z > 1.0
    q = np.where(hi, 2.0 - z, z)
    pp = np.where(hi, 1.0 - q, 1.0 - z)
    s = np.where(hi, -1.0, 1.0)
    x = -(s * _erf_inv_imp(pp, q)) * root2
    return (mean + x * sigma).astype(np.float32)
