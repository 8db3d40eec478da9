"""Re-run notebooks in place so their stored outputs (which nbval compares) are current.

Usage: python scripts/refresh_outputs.py notebooks/*.ipynb solutions/*.ipynb
Seeds live in the notebooks, so a refresh is reproducible; cells whose output
legitimately varies carry nbval's cell tag nbval-ignore-output.
"""
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent


def refresh(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    for cell in nb.cells:  # execution metadata holds timestamps: keep the files stable
        cell.get("metadata", {}).pop("execution", None)
    nbformat.write(nb, path)


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        print(f"running {arg}")
        refresh(Path(arg))
