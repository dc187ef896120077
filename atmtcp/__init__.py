"""atmtcp: TCP over ATM-UBR, cell by cell, reproducing four classic papers."""
from ._blas import one_blas_thread_for_the_command_line

one_blas_thread_for_the_command_line()  # before numpy is imported (below)

from .model import (
    Aal5Config, Connection, DropPolicy, Link, ModelError, Network, PortConfig, Run, TcpConfig,
    TraceConfig,
)
from .simulate import simulate

__version__ = "1.0.0"
__all__ = [
    "Aal5Config", "Connection", "DropPolicy", "Link", "ModelError", "Network", "PortConfig",
    "Run", "TcpConfig", "TraceConfig", "simulate",
]
