"""The mock obs-websocket v5 server (crates/overtalk-live/src/obs_mock.rs) against the real
Python client obsws-python: connect with the password, mute and unmute an input, set its
volume, read both back, and see a wrong password refused. Exit status 0 when every check holds.

    python obsws_check.py HOST PORT PASSWORD
"""

import sys

import obsws_python as obs

host, port, password = sys.argv[1], int(sys.argv[2]), sys.argv[3]
failures = 0


def check(cond, what):
    global failures
    print(("  ok   " if cond else "  FAIL ") + what)
    failures += 0 if cond else 1


client = obs.ReqClient(host=host, port=port, password=password, timeout=3)
version = client.get_version()
check(version.rpc_version == 1, f"identified, rpc version {version.rpc_version}")
client.set_input_mute("Mic A", True)
check(client.get_input_mute("Mic A").input_muted is True, "SetInputMute true, read back")
client.set_input_mute("Mic A", False)
check(client.get_input_mute("Mic A").input_muted is False, "SetInputMute false, read back")
client.set_input_volume("Mic B", vol_db=-12.0)
check(client.get_input_volume("Mic B").input_volume_db == -12.0, "SetInputVolume -12 dB, read back")
try:
    client.set_input_mute("No such input", True)
    check(False, "a missing input is an error")
except Exception as e:  # obsws-python raises OBSSDKRequestError
    check("600" in str(e) or "No source" in str(e), f"a missing input is an error ({e})")
client.disconnect()
try:
    obs.ReqClient(host=host, port=port, password=password + "-wrong", timeout=3)
    check(False, "a wrong password is refused")
except Exception as e:
    check(True, f"a wrong password is refused ({type(e).__name__})")
sys.exit(1 if failures else 0)
