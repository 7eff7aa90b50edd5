"""The tap counts of bench/mus_taps.py stay within the issue's aims (a count of taps, not a timing)."""
import importlib.util
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("mus_taps", os.path.join(ROOT, "bench", "mus_taps.py"))
taps = importlib.util.module_from_spec(spec)
spec.loader.exec_module(taps)


def test_every_scenario_is_within_its_aim():
    for name, fn in taps.SCENARIOS:
        aim = taps.AIMS[name.split()[0]]
        for preset in ("pagat", "spanish"):
            phone = fn(preset)
            assert len(phone.hands()) == 1 and "open" not in phone.hands()[0], (name, preset)
            if aim:
                assert phone.taps <= aim, (name, preset, phone.taps, phone.log)
