"""AAL5 segmentation (the kernel's compiled atmtcp.kernel.tcp.cells_for, and the plain
atmtcp.kernel.aal5.packet_cells the compiler uses) against the packet sizes the papers quote."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from atmtcp import model as m
from atmtcp.kernel.aal5 import CELL_BYTES, CELL_PAYLOAD_BYTES, packet_cells
from atmtcp.kernel.tcp import cells_for
from atmtcp.metrics import max_tcp_throughput_bps

import naive


def test_goyal1998_segment_is_12_cells():
    """goyal1998 3.2: 512 data + 20 TCP + 20 IP + 8 LLC + 8 AAL5 trailer are padded to 12 cells (636 bytes)."""
    assert cells_for(512, 20 + 20 + 8 + 8) == 12
    assert cells_for(512, 56) * CELL_BYTES == 636


def test_default_aal5_config_gives_goyal1998_framing():
    """goyal1998 3.2: the default Aal5Config adds 56 bytes, so an MSS of 512 takes 12 cells."""
    cfg = m.Aal5Config()
    assert cfg.overhead_bytes == 56
    assert cells_for(m.TcpConfig().mss, cfg.overhead_bytes) == 12


def test_goyal1998_maximum_tcp_throughput():
    """goyal1998 3.2: 512/636 of 155.52 Mbps = 125.2 Mbps is the maximum TCP throughput C."""
    c = max_tcp_throughput_bps(m.OC3_BPS, 512, 56)
    assert c == pytest.approx(155.52e6 * 512 / 636)
    assert round(c / 1e6, 1) == 125.2


# cheon 2: "Packet length at application layer: 500 bytes and 1,500 bytes", "TCP header size:
# 20 bytes", "IP header size: 20 bytes", and the AAL "adds a 14 bytes overhead to each IP
# datagram, and adjusts the size to multiples of 48 bytes". The IP datagram is 540 or 1540 bytes.
CHEON_HEADERS = 20 + 20
CHEON_AAL = 14


@pytest.mark.parametrize("app_bytes,cells", [(500, 12), (1500, 33)])
def test_cheon_packets(app_bytes, cells):
    """cheon 2: a 500 (1500) byte application packet + 40 bytes TCP/IP + 14 bytes AAL takes 12 (33) cells."""
    assert cells_for(app_bytes, CHEON_HEADERS + CHEON_AAL) == cells
    aal = m.Aal5Config(tcpip_header_bytes=CHEON_HEADERS, llc_bytes=0, trailer_bytes=CHEON_AAL)
    assert cells_for(app_bytes, aal.overhead_bytes) == cells


@pytest.mark.parametrize("app_bytes,cells", [(500, 11), (1500, 32)])
def test_cheon_aal_overhead_alone(app_bytes, cells):
    """cheon 2: without the TCP/IP headers, 500 (1500) bytes + 14 bytes AAL would be 11 (32) cells."""
    assert cells_for(app_bytes, CHEON_AAL) == cells


def test_cheon_offered_load_is_3_5_times_oc3():
    """cheon 2: 10 sources at 10,500 pkt/s (500 B) or 4,000 pkt/s (1500 B) offer about 3.5 x OC-3 (headers included)."""
    for rate, app in ((10_500, 500), (4_000, 1500)):
        offered = 10 * rate * cells_for(app, CHEON_HEADERS + CHEON_AAL) * CELL_BYTES * 8
        assert offered / m.OC3_BPS == pytest.approx(3.5, rel=0.05)


@pytest.mark.parametrize("overhead", [0, 8])
def test_lakshman_packets(overhead):
    """lakshman 3: a 4388-byte data packet is 92 cells and a 64-byte ACK is 2 cells (with or without the 8-byte trailer)."""
    assert cells_for(4388, overhead) == 92
    assert cells_for(64, overhead) == 2


def test_ack_is_two_cells():
    """goyal1998 3.2 framing: a bare ACK (40 TCP/IP + 8 LLC + 8 trailer = 56 bytes) needs 2 cells."""
    assert cells_for(0, m.Aal5Config().overhead_bytes) == 2


def test_padding_boundaries():
    """AAL5 (goyal1998 3.2 "padded"): exactly 48 bytes fit one cell, 49 need two."""
    assert CELL_PAYLOAD_BYTES == 48
    assert cells_for(40, 8) == 1
    assert cells_for(41, 8) == 2
    assert cells_for(0, 1) == 1


@given(st.integers(0, 100_000), st.integers(0, 200))
def test_cells_for_matches_naive(payload, overhead):
    """AAL5 segmentation: cells_for (and the compiler's packet_cells) equals counting 48-byte cell
    payloads one by one."""
    assert cells_for(payload, overhead) == packet_cells(payload, overhead) == naive.cells_for(payload, overhead)
