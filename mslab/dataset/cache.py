"""``DatasetCache``: MindSpore's client of a cache server (``cache_admin --start``) that keeps rows in memory.

A data set reader given ``cache=DatasetCache(...)`` asks the server for its rows. mslab has no cache server,
and neither has a machine where none was started: MindSpore 2.10 then builds the data set but fails when
its rows are read ("Network error. Cache server with port 50052 is unreachable", observed on CPU). mslab
does the same, so a program written for a cache server fails at the same place with the same meaning.
"""
import numbers

_UINT32_MAX = 2**32 - 1


class DatasetCache:
    """The settings of a cache session; reading rows through it raises, as without a running server."""

    def __init__(self, session_id, size=0, spilling=False, hostname=None, port=None, num_connections=None,
                 prefetch_size=None):
        if isinstance(session_id, bool) or not isinstance(session_id, numbers.Integral):  # MindSpore's messages
            raise TypeError(f"Argument session_id with value {session_id} is not of type [<class 'int'>], "
                            f"but got {type(session_id)}.")
        if not 1 <= session_id <= _UINT32_MAX:
            raise ValueError(f"Input session_id is not within the required interval of [1, {_UINT32_MAX}].")
        if size < 0:
            raise ValueError("Input size must be greater than 0.")
        self.session_id, self.size, self.spilling = session_id, size, spilling
        self.hostname, self.port, self.num_connections, self.prefetch_size = hostname, port, num_connections, \
            prefetch_size

    def unreachable(self, what):
        """The error of reading ``what``'s rows through the cache: no server is running."""
        port = 50052 if self.port is None else self.port
        return RuntimeError(f"{what}: Network error. Cache server with port {port} is unreachable. Make sure the "
                            f"server is running or started under the same user as the client. (mslab has no cache "
                            f"server: pass cache=None)")
