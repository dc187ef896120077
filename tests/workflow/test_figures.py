"""atmtcp.figures: a notebook shows the very file it wrote to figures/, at the figure's screen size."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from PIL import Image as PNG  # noqa: E402

from atmtcp import figures  # noqa: E402


def _figure():
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([0, 1], [1, 0])
    return fig


def test_outside_a_kernel_the_figure_is_saved_and_stays_open(tmp_path):
    fig = _figure()
    path = figures.save_and_show(fig, tmp_path, "cheon.fig2")
    assert path == tmp_path / "cheon" / "cheon.fig2.png" and path.stat().st_size > 0
    assert plt.fignum_exists(fig.number)
    plt.close(fig)


def test_in_a_kernel_the_saved_file_is_shown_and_the_figure_closed(tmp_path, monkeypatch):
    shown = []
    monkeypatch.setattr(figures, "_in_a_jupyter_kernel", lambda: True)
    monkeypatch.setattr("IPython.display.display", shown.append)
    fig = _figure()
    path = figures.save_and_show(fig, tmp_path, "cheon.fig2", quick=True)
    (image,) = shown
    assert image.data == path.read_bytes()
    with PNG.open(path) as png:
        assert png.width > fig.get_figwidth() * fig.dpi  # saved at 120 dpi, shown at the figure's 100
        assert image.width == round(png.width * fig.dpi / figures.SAVED_DPI)
    assert not plt.fignum_exists(fig.number)


def test_plain_python_is_not_a_kernel():
    assert not figures._in_a_jupyter_kernel()
