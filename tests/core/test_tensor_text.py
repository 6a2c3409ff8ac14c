"""repr(t), str(t) and the graph print of a Tensor show exactly what MindSpore 2.10 shows on CPU.

Every expected text below was printed by MindSpore 2.10 (CPU) for ``ms.Tensor(<the numpy array>)``: ``repr``
in PYNATIVE mode, and ``print(x)`` inside a GRAPH-mode ``construct`` for the graph table. The rules they
follow are stated in mslab/core/tensor_text.py.
"""
import numpy as np
import pytest

from mslab import Parameter, Tensor
from mslab.core.tensor_text import graph_print_text

nan, inf = np.nan, np.inf

# (numpy array, repr(Tensor(array)) on MindSpore 2.10 CPU)
REPR_CASES = [
    ('np.array([[1, 2, 3], [4, 5, 6]], np.float32)',
     'Tensor(shape=[2, 3], dtype=Float32, value=\n'
     '[[ 1.00000000e+00,  2.00000000e+00,  3.00000000e+00],\n'
     ' [ 4.00000000e+00,  5.00000000e+00,  6.00000000e+00]])'),
    ('np.array(3.0, np.float32)',
     'Tensor(shape=[], dtype=Float32, value= 3)'),
    ('np.array(3.5, np.float32)',
     'Tensor(shape=[], dtype=Float32, value= 3.5)'),
    ('np.array(0.1, np.float32)',
     'Tensor(shape=[], dtype=Float32, value= 0.1)'),
    ('np.array(-0.0, np.float32)',
     'Tensor(shape=[], dtype=Float32, value= -0)'),
    ('np.array(0.123456789, np.float32)',
     'Tensor(shape=[], dtype=Float32, value= 0.123457)'),
    ('np.array(1e10, np.float32)',
     'Tensor(shape=[], dtype=Float32, value= 1e+10)'),
    ('np.array(1e-7, np.float32)',
     'Tensor(shape=[], dtype=Float32, value= 1e-07)'),
    ('np.array(123456.7, np.float32)',
     'Tensor(shape=[], dtype=Float32, value= 123457)'),
    ('np.array(1234567.0, np.float32)',
     'Tensor(shape=[], dtype=Float32, value= 1.23457e+06)'),
    ('np.array(inf, np.float32)',
     'Tensor(shape=[], dtype=Float32, value= inf)'),
    ('np.array(-inf, np.float32)',
     'Tensor(shape=[], dtype=Float32, value= -inf)'),
    ('np.array(nan, np.float32)',
     'Tensor(shape=[], dtype=Float32, value= nan)'),
    ('np.array(-nan, np.float32)',
     'Tensor(shape=[], dtype=Float32, value= -nan)'),
    ('np.array(1/3)',
     'Tensor(shape=[], dtype=Float64, value= 0.333333)'),
    ('np.array(1e-300)',
     'Tensor(shape=[], dtype=Float64, value= 1e-300)'),
    ('np.array(0.1, np.float16)',
     'Tensor(shape=[], dtype=Float16, value= 0.0999756)'),
    ('np.array(5)',
     'Tensor(shape=[], dtype=Int64, value= 5)'),
    ('np.array(-5)',
     'Tensor(shape=[], dtype=Int64, value= -5)'),
    ('np.array(7, np.uint8)',
     'Tensor(shape=[], dtype=UInt8, value= 7)'),
    ('np.array(True)',
     'Tensor(shape=[], dtype=Bool, value= True)'),
    ('np.array(False)',
     'Tensor(shape=[], dtype=Bool, value= False)'),
    ('np.array([1, 2, 3], np.float32)',
     'Tensor(shape=[3], dtype=Float32, value= [ 1.00000000e+00,  2.00000000e+00,  3.00000000e+00])'),
    ('np.array([1.5, 2.25, 3.125], np.float32)',
     'Tensor(shape=[3], dtype=Float32, value= [ 1.50000000e+00,  2.25000000e+00,  3.12500000e+00])'),
    ('np.array([1e-5, 1.0, 1e5], np.float32)',
     'Tensor(shape=[3], dtype=Float32, value= [ 9.99999975e-06,  1.00000000e+00,  1.00000000e+05])'),
    ('np.array([-0.0, 0.0, 1.0], np.float32)',
     'Tensor(shape=[3], dtype=Float32, value= [-0.00000000e+00,  0.00000000e+00,  1.00000000e+00])'),
    ('np.array([inf, -inf, nan, -nan, 1.0], np.float32)',
     'Tensor(shape=[5], dtype=Float32, value= [            inf,            -inf,             nan'
     ',            -nan,  1.00000000e+00])'),
    ('np.array([1.5, 2.0, 3.1], np.float16)',
     'Tensor(shape=[3], dtype=Float16, value= [ 1.5000e+00,  2.0000e+00,  3.0996e+00])'),
    ('np.array([inf, 1, nan], np.float16)',
     'Tensor(shape=[3], dtype=Float16, value= [        inf,  1.0000e+00,         nan])'),
    ('np.array([0.1, 1/3])',
     'Tensor(shape=[2], dtype=Float64, value= [ 1.00000000e-01,  3.33333333e-01])'),
    ('np.array([1e100, -1e-200, 1.0])',
     'Tensor(shape=[3], dtype=Float64, value= [1.00000000e+100, -1.00000000e-200,  1.00000000e+00])'),
    ('np.array([1e-10, 2e-12, 1e10, 2e12], np.float32)',
     'Tensor(shape=[4], dtype=Float32, value= [ 1.00000001e-10,  1.99999999e-12,  1.00000000e+10'
     ',  1.99999999e+12])'),
    ('np.array([0.123456789, -1.23456789, 12.3456789], np.float32)',
     'Tensor(shape=[3], dtype=Float32, value= [ 1.23456791e-01, -1.23456788e+00,  1.23456793e+01])'),
    ('np.array([1, -2, 300], np.int32)',
     'Tensor(shape=[3], dtype=Int32, value= [  1,  -2, 300])'),
    ('np.array([[1, -2], [300, 4]])',
     'Tensor(shape=[2, 2], dtype=Int64, value=\n'
     '[[  1,  -2],\n'
     ' [300,   4]])'),
    ('np.array([1, 2, 255], np.uint8)',
     'Tensor(shape=[3], dtype=UInt8, value= [  1,   2, 255])'),
    ('np.array([-128, 5], np.int8)',
     'Tensor(shape=[2], dtype=Int8, value= [-128,    5])'),
    ('np.array([2**62, -5])',
     'Tensor(shape=[2], dtype=Int64, value= [4611686018427387904,                  -5])'),
    ('np.array([[1], [22]], np.int16)',
     'Tensor(shape=[2, 1], dtype=Int16, value=\n'
     '[[ 1],\n'
     ' [22]])'),
    ('np.array([True, False])',
     'Tensor(shape=[2], dtype=Bool, value= [ True, False])'),
    ('np.array([True, True])',
     'Tensor(shape=[2], dtype=Bool, value= [ True,  True])'),
    ('np.array([[True], [False]])',
     'Tensor(shape=[2, 1], dtype=Bool, value=\n'
     '[[ True],\n'
     ' [False]])'),
    ('np.array([2.0], np.float32)',
     'Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00])'),
    ('np.array([[2.0]], np.float32)',
     'Tensor(shape=[1, 1], dtype=Float32, value=\n'
     '[[ 2.00000000e+00]])'),
    ('np.arange(12).reshape(2, 2, 3).astype(np.float32)',
     'Tensor(shape=[2, 2, 3], dtype=Float32, value=\n'
     '[[[ 0.00000000e+00,  1.00000000e+00,  2.00000000e+00],\n'
     '  [ 3.00000000e+00,  4.00000000e+00,  5.00000000e+00]],\n'
     ' [[ 6.00000000e+00,  7.00000000e+00,  8.00000000e+00],\n'
     '  [ 9.00000000e+00,  1.00000000e+01,  1.10000000e+01]]])'),
    ('np.arange(12).reshape(2, 2, 3).astype(np.int32)',
     'Tensor(shape=[2, 2, 3], dtype=Int32, value=\n'
     '[[[ 0,  1,  2],\n'
     '  [ 3,  4,  5]],\n'
     ' [[ 6,  7,  8],\n'
     '  [ 9, 10, 11]]])'),
    ('np.arange(8, dtype=np.float32).reshape(2, 1, 2, 2)',
     'Tensor(shape=[2, 1, 2, 2], dtype=Float32, value=\n'
     '[[[[ 0.00000000e+00,  1.00000000e+00],\n'
     '   [ 2.00000000e+00,  3.00000000e+00]]],\n'
     ' [[[ 4.00000000e+00,  5.00000000e+00],\n'
     '   [ 6.00000000e+00,  7.00000000e+00]]]])'),
    ('np.zeros((0,), np.float32)',
     'Tensor(shape=[0], dtype=Float32, value= )'),
    ('np.zeros((2, 0), np.float32)',
     'Tensor(shape=[2, 0], dtype=Float32, value=\n'
     ')'),
    ('np.zeros((2, 0, 2), np.int32)',
     'Tensor(shape=[2, 0, 2], dtype=Int32, value=\n'
     ')'),
    ('np.arange(12, dtype=np.float32)',
     'Tensor(shape=[12], dtype=Float32, value= [ 0.00000000e+00,  1.00000000e+00,  2.00000000e+0'
     '0,  3.00000000e+00,  4.00000000e+00,  5.00000000e+00,  6.00000000e+00,  7.00000000e+00,  8'
     '.00000000e+00,  9.00000000e+00,  1.00000000e+01,  1.10000000e+01\n'
     ' ])'),
    ('np.arange(13, dtype=np.float32)',
     'Tensor(shape=[13], dtype=Float32, value= [ 0.00000000e+00,  1.00000000e+00,  2.00000000e+0'
     '0,  3.00000000e+00,  4.00000000e+00,  5.00000000e+00,  6.00000000e+00,  7.00000000e+00,  8'
     '.00000000e+00,  9.00000000e+00,  1.00000000e+01,  1.10000000e+01, \n'
     '  1.20000000e+01])'),
    ('np.arange(25, dtype=np.float32)',
     'Tensor(shape=[25], dtype=Float32, value= [ 0.00000000e+00,  1.00000000e+00,  2.00000000e+0'
     '0,  3.00000000e+00,  4.00000000e+00,  5.00000000e+00,  6.00000000e+00,  7.00000000e+00,  8'
     '.00000000e+00,  9.00000000e+00,  1.00000000e+01,  1.10000000e+01, \n'
     '  1.20000000e+01,  1.30000000e+01,  1.40000000e+01,  1.50000000e+01,  1.60000000e+01,  1.7'
     '0000000e+01,  1.80000000e+01,  1.90000000e+01,  2.00000000e+01,  2.10000000e+01,  2.200000'
     '00e+01,  2.30000000e+01, \n'
     '  2.40000000e+01])'),
    ('np.arange(13, dtype=np.float16)',
     'Tensor(shape=[13], dtype=Float16, value= [ 0.0000e+00,  1.0000e+00,  2.0000e+00,  3.0000e+'
     '00,  4.0000e+00,  5.0000e+00,  6.0000e+00,  7.0000e+00,  8.0000e+00,  9.0000e+00,  1.0000e'
     '+01,  1.1000e+01, \n'
     '  1.2000e+01])'),
    ('np.arange(24, dtype=np.int32)',
     'Tensor(shape=[24], dtype=Int32, value= [ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12'
     ', 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23\n'
     ' ])'),
    ('np.arange(25, dtype=np.int32)',
     'Tensor(shape=[25], dtype=Int32, value= [ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12'
     ', 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, \n'
     ' 24])'),
    ('np.arange(49, dtype=np.int32)',
     'Tensor(shape=[49], dtype=Int32, value= [ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12'
     ', 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, \n'
     ' 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 4'
     '6, 47, \n'
     ' 48])'),
    ('np.ones(12, bool)',
     'Tensor(shape=[12], dtype=Bool, value= [ True,  True,  True,  True,  True,  True,  True,  T'
     'rue,  True,  True,  True,  True\n'
     ' ])'),
    ('np.ones(13, bool)',
     'Tensor(shape=[13], dtype=Bool, value= [ True,  True,  True,  True,  True,  True,  True,  T'
     'rue,  True,  True,  True,  True, \n'
     '  True])'),
    ('np.arange(1001, dtype=np.float32)',
     'Tensor(shape=[1001], dtype=Float32, value= [ 0.00000000e+00,  1.00000000e+00,  2.00000000e'
     '+00 ...  9.98000000e+02,  9.99000000e+02,  1.00000000e+03])'),
    ('np.arange(1001, dtype=np.int32)',
     'Tensor(shape=[1001], dtype=Int32, value= [   0,    1,    2 ...  998,  999, 1000])'),
    ('np.ones(1001, bool)',
     'Tensor(shape=[1001], dtype=Bool, value= [ True,  True,  True ...  True,  True,  True])'),
    ('np.concatenate([[5], np.zeros(999), [-7]]).astype(np.int32)',
     'Tensor(shape=[1001], dtype=Int32, value= [ 5,  0,  0 ...  0,  0, -7])'),
    ('np.concatenate([np.zeros(500), [123456], np.zeros(500)]).astype(np.int32)',
     'Tensor(shape=[1001], dtype=Int32, value= [0, 0, 0 ... 0, 0, 0])'),
    ('np.arange(14, dtype=np.float32).reshape(2, 7)',
     'Tensor(shape=[2, 7], dtype=Float32, value=\n'
     '[[ 0.00000000e+00,  1.00000000e+00,  2.00000000e+00 ...  4.00000000e+00,  5.00000000e+00, '
     ' 6.00000000e+00],\n'
     ' [ 7.00000000e+00,  8.00000000e+00,  9.00000000e+00 ...  1.10000000e+01,  1.20000000e+01, '
     ' 1.30000000e+01]])'),
    ('np.arange(12, dtype=np.float32).reshape(2, 6)',
     'Tensor(shape=[2, 6], dtype=Float32, value=\n'
     '[[ 0.00000000e+00,  1.00000000e+00,  2.00000000e+00,  3.00000000e+00,  4.00000000e+00,  5.'
     '00000000e+00],\n'
     ' [ 6.00000000e+00,  7.00000000e+00,  8.00000000e+00,  9.00000000e+00,  1.00000000e+01,  1.'
     '10000000e+01]])'),
    ('np.arange(26, dtype=np.int32).reshape(2, 13)',
     'Tensor(shape=[2, 13], dtype=Int32, value=\n'
     '[[ 0,  1,  2 ... 10, 11, 12],\n'
     ' [13, 14, 15 ... 23, 24, 25]])'),
    ('np.ones((2, 7), bool)',
     'Tensor(shape=[2, 7], dtype=Bool, value=\n'
     '[[ True,  True,  True ...  True,  True,  True],\n'
     ' [ True,  True,  True ...  True,  True,  True]])'),
    ('np.ones((2, 7), np.float16)',
     'Tensor(shape=[2, 7], dtype=Float16, value=\n'
     '[[ 1.0000e+00,  1.0000e+00,  1.0000e+00 ...  1.0000e+00,  1.0000e+00,  1.0000e+00],\n'
     ' [ 1.0000e+00,  1.0000e+00,  1.0000e+00 ...  1.0000e+00,  1.0000e+00,  1.0000e+00]])'),
    ('np.arange(12, dtype=np.int32).reshape(6, 2)',
     'Tensor(shape=[6, 2], dtype=Int32, value=\n'
     '[[ 0,  1],\n'
     ' [ 2,  3],\n'
     ' [ 4,  5],\n'
     ' [ 6,  7],\n'
     ' [ 8,  9],\n'
     ' [10, 11]])'),
    ('np.arange(14, dtype=np.int32).reshape(7, 2)',
     'Tensor(shape=[7, 2], dtype=Int32, value=\n'
     '[[ 0,  1],\n'
     ' [ 2,  3],\n'
     ' [ 4,  5],\n'
     ' ...\n'
     ' [ 8,  9],\n'
     ' [10, 11],\n'
     ' [12, 13]])'),
    ('np.arange(200, dtype=np.int32).reshape(100, 2)',
     'Tensor(shape=[100, 2], dtype=Int32, value=\n'
     '[[  0,   1],\n'
     ' [  2,   3],\n'
     ' [  4,   5],\n'
     ' ...\n'
     ' [194, 195],\n'
     ' [196, 197],\n'
     ' [198, 199]])'),
    ('np.array([[0, 0, 0, 12345, 0, 0, 0]] * 2, np.int32)',
     'Tensor(shape=[2, 7], dtype=Int32, value=\n'
     '[[0, 0, 0 ... 0, 0, 0],\n'
     ' [0, 0, 0 ... 0, 0, 0]])'),
    ('np.arange(16, dtype=np.float32).reshape(8, 1, 2)',
     'Tensor(shape=[8, 1, 2], dtype=Float32, value=\n'
     '[[[ 0.00000000e+00,  1.00000000e+00]],\n'
     ' [[ 2.00000000e+00,  3.00000000e+00]],\n'
     ' [[ 4.00000000e+00,  5.00000000e+00]],\n'
     ' ...\n'
     ' [[ 1.00000000e+01,  1.10000000e+01]],\n'
     ' [[ 1.20000000e+01,  1.30000000e+01]],\n'
     ' [[ 1.40000000e+01,  1.50000000e+01]]])'),
    ('np.arange(1200, dtype=np.float32).reshape(40, 30)',
     'Tensor(shape=[40, 30], dtype=Float32, value=\n'
     '[[ 0.00000000e+00,  1.00000000e+00,  2.00000000e+00 ...  2.70000000e+01,  2.80000000e+01, '
     ' 2.90000000e+01],\n'
     ' [ 3.00000000e+01,  3.10000000e+01,  3.20000000e+01 ...  5.70000000e+01,  5.80000000e+01, '
     ' 5.90000000e+01],\n'
     ' [ 6.00000000e+01,  6.10000000e+01,  6.20000000e+01 ...  8.70000000e+01,  8.80000000e+01, '
     ' 8.90000000e+01],\n'
     ' ...\n'
     ' [ 1.11000000e+03,  1.11100000e+03,  1.11200000e+03 ...  1.13700000e+03,  1.13800000e+03, '
     ' 1.13900000e+03],\n'
     ' [ 1.14000000e+03,  1.14100000e+03,  1.14200000e+03 ...  1.16700000e+03,  1.16800000e+03, '
     ' 1.16900000e+03],\n'
     ' [ 1.17000000e+03,  1.17100000e+03,  1.17200000e+03 ...  1.19700000e+03,  1.19800000e+03, '
     ' 1.19900000e+03]])'),
    ('np.arange(1050, dtype=np.int32).reshape(10, 15, 7)',
     'Tensor(shape=[10, 15, 7], dtype=Int32, value=\n'
     '[[[   0,    1,    2 ...    4,    5,    6],\n'
     '  [   7,    8,    9 ...   11,   12,   13],\n'
     '  [  14,   15,   16 ...   18,   19,   20],\n'
     '  ...\n'
     '  [  84,   85,   86 ...   88,   89,   90],\n'
     '  [  91,   92,   93 ...   95,   96,   97],\n'
     '  [  98,   99,  100 ...  102,  103,  104]],\n'
     ' [[ 105,  106,  107 ...  109,  110,  111],\n'
     '  [ 112,  113,  114 ...  116,  117,  118],\n'
     '  [ 119,  120,  121 ...  123,  124,  125],\n'
     '  ...\n'
     '  [ 189,  190,  191 ...  193,  194,  195],\n'
     '  [ 196,  197,  198 ...  200,  201,  202],\n'
     '  [ 203,  204,  205 ...  207,  208,  209]],\n'
     ' [[ 210,  211,  212 ...  214,  215,  216],\n'
     '  [ 217,  218,  219 ...  221,  222,  223],\n'
     '  [ 224,  225,  226 ...  228,  229,  230],\n'
     '  ...\n'
     '  [ 294,  295,  296 ...  298,  299,  300],\n'
     '  [ 301,  302,  303 ...  305,  306,  307],\n'
     '  [ 308,  309,  310 ...  312,  313,  314]],\n'
     ' ...\n'
     ' [[ 735,  736,  737 ...  739,  740,  741],\n'
     '  [ 742,  743,  744 ...  746,  747,  748],\n'
     '  [ 749,  750,  751 ...  753,  754,  755],\n'
     '  ...\n'
     '  [ 819,  820,  821 ...  823,  824,  825],\n'
     '  [ 826,  827,  828 ...  830,  831,  832],\n'
     '  [ 833,  834,  835 ...  837,  838,  839]],\n'
     ' [[ 840,  841,  842 ...  844,  845,  846],\n'
     '  [ 847,  848,  849 ...  851,  852,  853],\n'
     '  [ 854,  855,  856 ...  858,  859,  860],\n'
     '  ...\n'
     '  [ 924,  925,  926 ...  928,  929,  930],\n'
     '  [ 931,  932,  933 ...  935,  936,  937],\n'
     '  [ 938,  939,  940 ...  942,  943,  944]],\n'
     ' [[ 945,  946,  947 ...  949,  950,  951],\n'
     '  [ 952,  953,  954 ...  956,  957,  958],\n'
     '  [ 959,  960,  961 ...  963,  964,  965],\n'
     '  ...\n'
     '  [1029, 1030, 1031 ... 1033, 1034, 1035],\n'
     '  [1036, 1037, 1038 ... 1040, 1041, 1042],\n'
     '  [1043, 1044, 1045 ... 1047, 1048, 1049]]])'),
    ('np.ones((1001, 1), np.float32)',
     'Tensor(shape=[1001, 1], dtype=Float32, value=\n'
     '[[ 1.00000000e+00],\n'
     ' [ 1.00000000e+00],\n'
     ' [ 1.00000000e+00],\n'
     ' ...\n'
     ' [ 1.00000000e+00],\n'
     ' [ 1.00000000e+00],\n'
     ' [ 1.00000000e+00]])'),
    ('np.arange(1008, dtype=np.float32)',
     'Tensor(shape=[1008], dtype=Float32, value= [ 0.00000000e+00,  1.00000000e+00,  2.00000000e'
     '+00 ...  1.00500000e+03,  1.00600000e+03,  1.00700000e+03])'),
    ('np.arange(1008, dtype=np.int32)',
     'Tensor(shape=[1008], dtype=Int32, value= [   0,    1,    2 ... 1005, 1006, 1007])'),
    ('np.arange(1008, dtype=np.int64).reshape(1, 1008)',
     'Tensor(shape=[1, 1008], dtype=Int64, value=\n'
     '[[   0,    1,    2 ... 1005, 1006, 1007]])'),
    ('np.array([[1.5, -2.25], [nan, 0.0]], np.float64)',
     'Tensor(shape=[2, 2], dtype=Float64, value=\n'
     '[[ 1.50000000e+00, -2.25000000e+00],\n'
     ' [            nan,  0.00000000e+00]])'),
]

# (numpy array, what print(x) writes for it inside a GRAPH-mode construct on MindSpore 2.10 CPU)
GRAPH_PRINT_CASES = [
    ('np.array([[1, 2, 3], [4, 5, 6]], np.float32)',
     'Tensor(shape=[2, 3], dtype=Float32, value=\n'
     '[[ 1.00000000e+00  2.00000000e+00  3.00000000e+00]\n'
     ' [ 4.00000000e+00  5.00000000e+00  6.00000000e+00]])'),
    ('np.array(3.0, np.float32)',
     '3'),
    ('np.array(3.5, np.float32)',
     '3.5'),
    ('np.array(0.1, np.float32)',
     '0.1'),
    ('np.array(-0.0, np.float32)',
     '-0'),
    ('np.array(0.123456789, np.float32)',
     '0.123457'),
    ('np.array(1e10, np.float32)',
     '1e+10'),
    ('np.array(1e-7, np.float32)',
     '1e-07'),
    ('np.array(123456.7, np.float32)',
     '123457'),
    ('np.array(1234567.0, np.float32)',
     '1.23457e+06'),
    ('np.array(inf, np.float32)',
     'inf'),
    ('np.array(-inf, np.float32)',
     '-inf'),
    ('np.array(nan, np.float32)',
     'nan'),
    ('np.array(-nan, np.float32)',
     '-nan'),
    ('np.array(1/3)',
     '0.333333'),
    ('np.array(1e-300)',
     '1e-300'),
    ('np.array(0.1, np.float16)',
     '0.0999756'),
    ('np.array(5)',
     '5'),
    ('np.array(-5)',
     '-5'),
    ('np.array(7, np.uint8)',
     '\x07'),
    ('np.array(True)',
     '1'),
    ('np.array(False)',
     '0'),
    ('np.array([1, 2, 3], np.float32)',
     'Tensor(shape=[3], dtype=Float32, value=[ 1.00000000e+00  2.00000000e+00  3.00000000e+00])'),
    ('np.array([1.5, 2.25, 3.125], np.float32)',
     'Tensor(shape=[3], dtype=Float32, value=[ 1.50000000e+00  2.25000000e+00  3.12500000e+00])'),
    ('np.array([1e-5, 1.0, 1e5], np.float32)',
     'Tensor(shape=[3], dtype=Float32, value=[ 9.99999975e-06  1.00000000e+00  1.00000000e+05])'),
    ('np.array([-0.0, 0.0, 1.0], np.float32)',
     'Tensor(shape=[3], dtype=Float32, value=[-0.00000000e+00  0.00000000e+00  1.00000000e+00])'),
    ('np.array([inf, -inf, nan, -nan, 1.0], np.float32)',
     'Tensor(shape=[5], dtype=Float32, value=[            inf            -inf             nan   '
     '         -nan  1.00000000e+00])'),
    ('np.array([1.5, 2.0, 3.1], np.float16)',
     'Tensor(shape=[3], dtype=Float16, value=[ 1.5000e+00  2.0000e+00  3.0996e+00])'),
    ('np.array([inf, 1, nan], np.float16)',
     'Tensor(shape=[3], dtype=Float16, value=[        inf  1.0000e+00         nan])'),
    ('np.array([0.1, 1/3])',
     'Tensor(shape=[2], dtype=Float64, value=[ 1.00000000e-01  3.33333333e-01])'),
    ('np.array([1e100, -1e-200, 1.0])',
     'Tensor(shape=[3], dtype=Float64, value=[1.00000000e+100 -1.00000000e-200  1.00000000e+00])'),
    ('np.array([1e-10, 2e-12, 1e10, 2e12], np.float32)',
     'Tensor(shape=[4], dtype=Float32, value=[ 1.00000001e-10  1.99999999e-12  1.00000000e+10  1'
     '.99999999e+12])'),
    ('np.array([0.123456789, -1.23456789, 12.3456789], np.float32)',
     'Tensor(shape=[3], dtype=Float32, value=[ 1.23456791e-01 -1.23456788e+00  1.23456793e+01])'),
    ('np.array([1, -2, 300], np.int32)',
     'Tensor(shape=[3], dtype=Int32, value=[  1  -2 300])'),
    ('np.array([[1, -2], [300, 4]])',
     'Tensor(shape=[2, 2], dtype=Int64, value=\n'
     '[[  1  -2]\n'
     ' [300   4]])'),
    ('np.array([1, 2, 255], np.uint8)',
     'Tensor(shape=[3], dtype=UInt8, value=[  1   2 255])'),
    ('np.array([-128, 5], np.int8)',
     'Tensor(shape=[2], dtype=Int8, value=[-128    5])'),
    ('np.array([2**62, -5])',
     'Tensor(shape=[2], dtype=Int64, value=[4611686018427387904                  -5])'),
    ('np.array([[1], [22]], np.int16)',
     'Tensor(shape=[2, 1], dtype=Int16, value=\n'
     '[[ 1]\n'
     ' [22]])'),
    ('np.array([True, False])',
     'Tensor(shape=[2], dtype=Bool, value=[ True False])'),
    ('np.array([True, True])',
     'Tensor(shape=[2], dtype=Bool, value=[ True  True])'),
    ('np.array([[True], [False]])',
     'Tensor(shape=[2, 1], dtype=Bool, value=\n'
     '[[ True]\n'
     ' [False]])'),
    ('np.array([2.0], np.float32)',
     'Tensor(shape=[1], dtype=Float32, value=[ 2.00000000e+00])'),
    ('np.array([[2.0]], np.float32)',
     'Tensor(shape=[1, 1], dtype=Float32, value=\n'
     '[[ 2.00000000e+00]])'),
    ('np.arange(12).reshape(2, 2, 3).astype(np.float32)',
     'Tensor(shape=[2, 2, 3], dtype=Float32, value=\n'
     '[[[ 0.00000000e+00  1.00000000e+00  2.00000000e+00]\n'
     '  [ 3.00000000e+00  4.00000000e+00  5.00000000e+00]]\n'
     ' [[ 6.00000000e+00  7.00000000e+00  8.00000000e+00]\n'
     '  [ 9.00000000e+00  1.00000000e+01  1.10000000e+01]]])'),
    ('np.arange(12).reshape(2, 2, 3).astype(np.int32)',
     'Tensor(shape=[2, 2, 3], dtype=Int32, value=\n'
     '[[[ 0  1  2]\n'
     '  [ 3  4  5]]\n'
     ' [[ 6  7  8]\n'
     '  [ 9 10 11]]])'),
    ('np.arange(8, dtype=np.float32).reshape(2, 1, 2, 2)',
     'Tensor(shape=[2, 1, 2, 2], dtype=Float32, value=\n'
     '[[[[ 0.00000000e+00  1.00000000e+00]\n'
     '   [ 2.00000000e+00  3.00000000e+00]]]\n'
     ' [[[ 4.00000000e+00  5.00000000e+00]\n'
     '   [ 6.00000000e+00  7.00000000e+00]]]])'),
    ('np.arange(12, dtype=np.float32)',
     'Tensor(shape=[12], dtype=Float32, value=[ 0.00000000e+00  1.00000000e+00  2.00000000e+00  '
     '3.00000000e+00  4.00000000e+00  5.00000000e+00  6.00000000e+00  7.00000000e+00  8.00000000'
     'e+00  9.00000000e+00  1.00000000e+01  1.10000000e+01\n'
     ' ])'),
    ('np.arange(13, dtype=np.float32)',
     'Tensor(shape=[13], dtype=Float32, value=[ 0.00000000e+00  1.00000000e+00  2.00000000e+00  '
     '3.00000000e+00  4.00000000e+00  5.00000000e+00  6.00000000e+00  7.00000000e+00  8.00000000'
     'e+00  9.00000000e+00  1.00000000e+01  1.10000000e+01 \n'
     '  1.20000000e+01])'),
    ('np.arange(25, dtype=np.float32)',
     'Tensor(shape=[25], dtype=Float32, value=[ 0.00000000e+00  1.00000000e+00  2.00000000e+00  '
     '3.00000000e+00  4.00000000e+00  5.00000000e+00  6.00000000e+00  7.00000000e+00  8.00000000'
     'e+00  9.00000000e+00  1.00000000e+01  1.10000000e+01 \n'
     '  1.20000000e+01  1.30000000e+01  1.40000000e+01  1.50000000e+01  1.60000000e+01  1.700000'
     '00e+01  1.80000000e+01  1.90000000e+01  2.00000000e+01  2.10000000e+01  2.20000000e+01  2.'
     '30000000e+01 \n'
     '  2.40000000e+01])'),
    ('np.arange(13, dtype=np.float16)',
     'Tensor(shape=[13], dtype=Float16, value=[ 0.0000e+00  1.0000e+00  2.0000e+00  3.0000e+00  '
     '4.0000e+00  5.0000e+00  6.0000e+00  7.0000e+00  8.0000e+00  9.0000e+00  1.0000e+01  1.1000e+01 \n'
     '  1.2000e+01])'),
    ('np.arange(24, dtype=np.int32)',
     'Tensor(shape=[24], dtype=Int32, value=[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 '
     '17 18 19 20 21 22 23\n'
     ' ])'),
    ('np.arange(25, dtype=np.int32)',
     'Tensor(shape=[25], dtype=Int32, value=[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 '
     '17 18 19 20 21 22 23 \n'
     ' 24])'),
    ('np.arange(49, dtype=np.int32)',
     'Tensor(shape=[49], dtype=Int32, value=[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 '
     '17 18 19 20 21 22 23 \n'
     ' 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 \n'
     ' 48])'),
    ('np.ones(12, bool)',
     'Tensor(shape=[12], dtype=Bool, value=[ True  True  True  True  True  True  True  True  Tru'
     'e  True  True  True\n'
     ' ])'),
    ('np.ones(13, bool)',
     'Tensor(shape=[13], dtype=Bool, value=[ True  True  True  True  True  True  True  True  Tru'
     'e  True  True  True \n'
     '  True])'),
    ('np.arange(1001, dtype=np.float32)',
     'Tensor(shape=[1001], dtype=Float32, value=[ 0.00000000e+00  1.00000000e+00  2.00000000e+00'
     ' ...  9.98000000e+02  9.99000000e+02  1.00000000e+03])'),
    ('np.arange(1001, dtype=np.int32)',
     'Tensor(shape=[1001], dtype=Int32, value=[   0    1    2 ...  998  999 1000])'),
    ('np.ones(1001, bool)',
     'Tensor(shape=[1001], dtype=Bool, value=[ True  True  True ...  True  True  True])'),
    ('np.arange(14, dtype=np.float32).reshape(2, 7)',
     'Tensor(shape=[2, 7], dtype=Float32, value=\n'
     '[[ 0.00000000e+00  1.00000000e+00  2.00000000e+00 ...  4.00000000e+00  5.00000000e+00  6.0'
     '0000000e+00]\n'
     ' [ 7.00000000e+00  8.00000000e+00  9.00000000e+00 ...  1.10000000e+01  1.20000000e+01  1.3'
     '0000000e+01]])'),
    ('np.arange(12, dtype=np.float32).reshape(2, 6)',
     'Tensor(shape=[2, 6], dtype=Float32, value=\n'
     '[[ 0.00000000e+00  1.00000000e+00  2.00000000e+00  3.00000000e+00  4.00000000e+00  5.00000'
     '000e+00]\n'
     ' [ 6.00000000e+00  7.00000000e+00  8.00000000e+00  9.00000000e+00  1.00000000e+01  1.10000'
     '000e+01]])'),
    ('np.arange(26, dtype=np.int32).reshape(2, 13)',
     'Tensor(shape=[2, 13], dtype=Int32, value=\n'
     '[[ 0  1  2 ... 10 11 12]\n'
     ' [13 14 15 ... 23 24 25]])'),
    ('np.ones((2, 7), bool)',
     'Tensor(shape=[2, 7], dtype=Bool, value=\n'
     '[[ True  True  True ...  True  True  True]\n'
     ' [ True  True  True ...  True  True  True]])'),
    ('np.ones((2, 7), np.float16)',
     'Tensor(shape=[2, 7], dtype=Float16, value=\n'
     '[[ 1.0000e+00  1.0000e+00  1.0000e+00 ...  1.0000e+00  1.0000e+00  1.0000e+00]\n'
     ' [ 1.0000e+00  1.0000e+00  1.0000e+00 ...  1.0000e+00  1.0000e+00  1.0000e+00]])'),
    ('np.arange(12, dtype=np.int32).reshape(6, 2)',
     'Tensor(shape=[6, 2], dtype=Int32, value=\n'
     '[[ 0  1]\n'
     ' [ 2  3]\n'
     ' [ 4  5]\n'
     ' [ 6  7]\n'
     ' [ 8  9]\n'
     ' [10 11]])'),
    ('np.arange(14, dtype=np.int32).reshape(7, 2)',
     'Tensor(shape=[7, 2], dtype=Int32, value=\n'
     '[[ 0  1]\n'
     ' [ 2  3]\n'
     ' [ 4  5]\n'
     ' ...\n'
     ' [ 8  9]\n'
     ' [10 11]\n'
     ' [12 13]])'),
    ('np.arange(200, dtype=np.int32).reshape(100, 2)',
     'Tensor(shape=[100, 2], dtype=Int32, value=\n'
     '[[  0   1]\n'
     ' [  2   3]\n'
     ' [  4   5]\n'
     ' ...\n'
     ' [194 195]\n'
     ' [196 197]\n'
     ' [198 199]])'),
    ('np.array([[0, 0, 0, 12345, 0, 0, 0]] * 2, np.int32)',
     'Tensor(shape=[2, 7], dtype=Int32, value=\n'
     '[[0 0 0 ... 0 0 0]\n'
     ' [0 0 0 ... 0 0 0]])'),
    ('np.arange(16, dtype=np.float32).reshape(8, 1, 2)',
     'Tensor(shape=[8, 1, 2], dtype=Float32, value=\n'
     '[[[ 0.00000000e+00  1.00000000e+00]]\n'
     ' [[ 2.00000000e+00  3.00000000e+00]]\n'
     ' [[ 4.00000000e+00  5.00000000e+00]]\n'
     ' ...\n'
     ' [[ 1.00000000e+01  1.10000000e+01]]\n'
     ' [[ 1.20000000e+01  1.30000000e+01]]\n'
     ' [[ 1.40000000e+01  1.50000000e+01]]])'),
    ('np.arange(1200, dtype=np.float32).reshape(40, 30)',
     'Tensor(shape=[40, 30], dtype=Float32, value=\n'
     '[[ 0.00000000e+00  1.00000000e+00  2.00000000e+00 ...  2.70000000e+01  2.80000000e+01  2.9'
     '0000000e+01]\n'
     ' [ 3.00000000e+01  3.10000000e+01  3.20000000e+01 ...  5.70000000e+01  5.80000000e+01  5.9'
     '0000000e+01]\n'
     ' [ 6.00000000e+01  6.10000000e+01  6.20000000e+01 ...  8.70000000e+01  8.80000000e+01  8.9'
     '0000000e+01]\n'
     ' ...\n'
     ' [ 1.11000000e+03  1.11100000e+03  1.11200000e+03 ...  1.13700000e+03  1.13800000e+03  1.1'
     '3900000e+03]\n'
     ' [ 1.14000000e+03  1.14100000e+03  1.14200000e+03 ...  1.16700000e+03  1.16800000e+03  1.1'
     '6900000e+03]\n'
     ' [ 1.17000000e+03  1.17100000e+03  1.17200000e+03 ...  1.19700000e+03  1.19800000e+03  1.1'
     '9900000e+03]])'),
    ('np.arange(1050, dtype=np.int32).reshape(10, 15, 7)',
     'Tensor(shape=[10, 15, 7], dtype=Int32, value=\n'
     '[[[   0    1    2 ...    4    5    6]\n'
     '  [   7    8    9 ...   11   12   13]\n'
     '  [  14   15   16 ...   18   19   20]\n'
     '  ...\n'
     '  [  84   85   86 ...   88   89   90]\n'
     '  [  91   92   93 ...   95   96   97]\n'
     '  [  98   99  100 ...  102  103  104]]\n'
     ' [[ 105  106  107 ...  109  110  111]\n'
     '  [ 112  113  114 ...  116  117  118]\n'
     '  [ 119  120  121 ...  123  124  125]\n'
     '  ...\n'
     '  [ 189  190  191 ...  193  194  195]\n'
     '  [ 196  197  198 ...  200  201  202]\n'
     '  [ 203  204  205 ...  207  208  209]]\n'
     ' [[ 210  211  212 ...  214  215  216]\n'
     '  [ 217  218  219 ...  221  222  223]\n'
     '  [ 224  225  226 ...  228  229  230]\n'
     '  ...\n'
     '  [ 294  295  296 ...  298  299  300]\n'
     '  [ 301  302  303 ...  305  306  307]\n'
     '  [ 308  309  310 ...  312  313  314]]\n'
     ' ...\n'
     ' [[ 735  736  737 ...  739  740  741]\n'
     '  [ 742  743  744 ...  746  747  748]\n'
     '  [ 749  750  751 ...  753  754  755]\n'
     '  ...\n'
     '  [ 819  820  821 ...  823  824  825]\n'
     '  [ 826  827  828 ...  830  831  832]\n'
     '  [ 833  834  835 ...  837  838  839]]\n'
     ' [[ 840  841  842 ...  844  845  846]\n'
     '  [ 847  848  849 ...  851  852  853]\n'
     '  [ 854  855  856 ...  858  859  860]\n'
     '  ...\n'
     '  [ 924  925  926 ...  928  929  930]\n'
     '  [ 931  932  933 ...  935  936  937]\n'
     '  [ 938  939  940 ...  942  943  944]]\n'
     ' [[ 945  946  947 ...  949  950  951]\n'
     '  [ 952  953  954 ...  956  957  958]\n'
     '  [ 959  960  961 ...  963  964  965]\n'
     '  ...\n'
     '  [1029 1030 1031 ... 1033 1034 1035]\n'
     '  [1036 1037 1038 ... 1040 1041 1042]\n'
     '  [1043 1044 1045 ... 1047 1048 1049]]])'),
    ('np.ones((1001, 1), np.float32)',
     'Tensor(shape=[1001, 1], dtype=Float32, value=\n'
     '[[ 1.00000000e+00]\n'
     ' [ 1.00000000e+00]\n'
     ' [ 1.00000000e+00]\n'
     ' ...\n'
     ' [ 1.00000000e+00]\n'
     ' [ 1.00000000e+00]\n'
     ' [ 1.00000000e+00]])'),
    ('np.arange(1008, dtype=np.float32)',
     'Tensor(shape=[1008], dtype=Float32, value=[ 0.00000000e+00  1.00000000e+00  2.00000000e+00'
     ' ...  1.00500000e+03  1.00600000e+03  1.00700000e+03])'),
    ('np.arange(1008, dtype=np.int32)',
     'Tensor(shape=[1008], dtype=Int32, value=[   0    1    2 ... 1005 1006 1007])'),
    ('np.arange(1008, dtype=np.int64).reshape(1, 1008)',
     'Tensor(shape=[1, 1008], dtype=Int64, value=\n'
     '[[   0    1    2 ... 1005 1006 1007]])'),
    ('np.array([[1.5, -2.25], [nan, 0.0]], np.float64)',
     'Tensor(shape=[2, 2], dtype=Float64, value=\n'
     '[[ 1.50000000e+00 -2.25000000e+00]\n'
     ' [            nan  0.00000000e+00]])'),
]


@pytest.mark.parametrize("array, text", REPR_CASES, ids=[c for c, _ in REPR_CASES])
def test_repr_is_mindspores_text(array, text):
    assert repr(Tensor(eval(array))) == text


@pytest.mark.parametrize("array, text", GRAPH_PRINT_CASES, ids=[c for c, _ in GRAPH_PRINT_CASES])
def test_graph_print_is_mindspores_text(array, text):
    assert graph_print_text(eval(array)) == text


def test_a_1d_tensor_of_1000_floats_breaks_its_line_after_every_12th():
    text = repr(Tensor(np.arange(1000, dtype=np.float32)))
    lines = text.split("\n")
    assert len(lines) == 84  # 83 full lines of 12 and one of 4 (MindSpore 2.10)
    assert lines[0].endswith("1.10000000e+01, ") and lines[1].startswith("  1.20000000e+01,  1.30000000e+01")
    assert lines[-1] == "  9.96000000e+02,  9.97000000e+02,  9.98000000e+02,  9.99000000e+02])"


@pytest.mark.parametrize("array, text", [
    (np.array([[1, 2, 3], [4, 5, 6]], np.float32), "[[1. 2. 3.]\n [4. 5. 6.]]"),
    (np.array(3.0, np.float32), "3.0"),
    (np.array([-0.0, 0.0, 1.0], np.float32), "[-0.  0.  1.]"),
    (np.array([0.123456789, -1.23456789, 12.3456789], np.float32), "[ 0.12345679 -1.2345679  12.345679  ]"),
    (np.arange(12).reshape(2, 2, 3).astype(np.int32),
     "[[[ 0  1  2]\n  [ 3  4  5]]\n\n [[ 6  7  8]\n  [ 9 10 11]]]"),
    (np.array(True), "True"),
])
def test_str_and_print_show_numpys_text(array, text, capsys):
    """str(t) and print(t) in PYNATIVE mode are numpy's str of the numbers (MindSpore 2.10)."""
    t = Tensor(array)
    print(t)
    assert str(t) == text and capsys.readouterr().out == text + "\n"


def test_tensors_inside_a_tuple_or_list_show_their_repr():
    items = (Tensor(np.array([1, 2], np.int32)), Tensor(1.5))
    text = "Tensor(shape=[2], dtype=Int32, value= [1, 2]), Tensor(shape=[], dtype=Float32, value= 1.5)"
    assert repr(items) == f"({text})" and str(list(items)) == f"[{text}]"


def test_a_parameter_shows_its_name_not_its_numbers():
    p = Parameter(Tensor([1.0, 2.0]), name="w")
    text = "Parameter (name=w, shape=(2,), dtype=Float32, requires_grad=True)"
    assert repr(p) == text and str(p) == text
