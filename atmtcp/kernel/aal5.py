"""AAL5 segmentation: how many 48-byte cell payloads a packet needs. Plain Python, shared by
the compiler, the metrics and (compiled) the kernel's TCP."""

CELL_BYTES = 53
CELL_PAYLOAD_BYTES = 48


def packet_cells(payload_bytes, overhead_bytes):
    """Cells for ``payload_bytes`` plus ``overhead_bytes`` of headers and trailer, padded.

    goyal1998 section 3.2: 512 data + 20 TCP + 20 IP + 8 LLC + 8 AAL5 trailer = 568
    bytes, padded to 12 cells. Plain Python, for the compiler and the metrics (calling a
    compiled function from Python would load it from numba's cache on its own);
    :func:`atmtcp.kernel.tcp.cells_for` is the kernel's compiled copy.
    """
    return (payload_bytes + overhead_bytes + CELL_PAYLOAD_BYTES - 1) // CELL_PAYLOAD_BYTES

