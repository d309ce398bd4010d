#!/usr/bin/env python3
"""`regrapht optimize` shows it is alive and keeps its time limit (issue 34).

With the tiny random-weight model (embedded llama.cpp) and a fake slow model
server (fake_openai_server.py with $FAKE_DELAY_S: a reply that never comes in
time), it checks that:

- the first progress line comes within 5 s of the start and one follows at
  least every 10 s until the end (stderr is a pipe here: plain lines);
- an estimate of the search's duration is printed before the search, and a
  warning when it would take more than 30 minutes;
- --max-seconds 60 ends the run by 65 s with the report written, the reply
  in progress recorded as "interrupted" (not a verdict), the stop reason the
  time limit, and the run's facts (command, version, commit, wall time,
  device, caches, exit status) in the report;
- a rerun served from the response cache says so (and the report counts it);
- Ctrl-C during a generation says "after 0 generations (the one in progress
  was cut short)" and records the reply as interrupted, with no llama.cpp
  error lines.

Usage: optimize_alive_test.py REGRAPHT SOURCE_ROOT WRITE_TINY_GGUF [LIMIT_S]
(LIMIT_S: the --max-seconds of the slow-server run, 60 by default.)
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

BIN, SRC, WRITE_TINY = sys.argv[1], sys.argv[2], sys.argv[3]
LIMIT = float(sys.argv[4]) if len(sys.argv) > 4 else 60.0
FIRST_LINE_S = 5.0   # the first progress line comes this soon
MAX_GAP_S = 10.0     # and the next ones at most this far apart
GRACE_S = 5.0        # a --max-seconds run ends this soon after its limit
errors = []


def fail(msg):
    errors.append(msg)
    print("FAIL:", msg, file=sys.stderr)


def run(args, env, stop_after=None, signal_when=None):
    """Runs regrapht with ARGS; returns (rc, seconds, stdout, [(t, stderr line)]).
    signal_when: a predicate on a stderr line; SIGINT is sent once it holds."""
    t0 = time.monotonic()
    p = subprocess.Popen([BIN] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    lines, out = [], []
    reader = threading.Thread(target=lambda: out.append(p.stdout.read()))
    reader.start()
    sent = False
    for line in p.stderr:
        t = time.monotonic() - t0
        lines.append((t, line.rstrip("\n")))
        if signal_when and not sent and signal_when(line):
            p.send_signal(signal.SIGINT)
            sent = True
    rc = p.wait(timeout=stop_after)
    seconds = time.monotonic() - t0
    reader.join()
    return rc, seconds, "".join(out), lines


def check_alive(label, seconds, lines):
    """The first progress line within FIRST_LINE_S, then one at least every MAX_GAP_S to the end."""
    times = [t for t, l in lines if l.startswith("progress ")]
    if not times:
        fail(f"{label}: no progress line at all: {[l for _, l in lines][:10]}")
        return
    if times[0] > FIRST_LINE_S:
        fail(f"{label}: the first progress line came after {times[0]:.1f} s (at most {FIRST_LINE_S} s)")
    gaps = [b - a for a, b in zip(times, times[1:] + [seconds])]
    if max(gaps) > MAX_GAP_S:
        fail(f"{label}: {max(gaps):.1f} s without a progress line (at most {MAX_GAP_S} s)")
    print(f"{label}: first progress line at {times[0]:.2f} s, {len(times)} lines, longest gap {max(gaps):.1f} s, "
          f"ended at {seconds:.1f} s")


def report(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{path}: no readable report: {e}")
        return None


def check_run_facts(label, r, rc):
    run_ = r.get("run", {})
    for key in ("command", "version", "commit", "wall_s", "device", "cache", "exit_status", "finished_at"):
        if run_.get(key) in (None, ""):
            fail(f"{label}: the report's run has no {key}: {run_}")
    if run_.get("exit_status") != rc:
        fail(f"{label}: the report says exit status {run_.get('exit_status')}, the process exited {rc}")
    if "optimize" not in (run_.get("command") or ""):
        fail(f"{label}: the recorded command is {run_.get('command')!r}")


def start_server(tmp, delay):
    env = dict(os.environ, FAKE_DELAY_S=str(delay))
    port_file = os.path.join(tmp, "port")
    server = subprocess.Popen([sys.executable, os.path.join(SRC, "src/cli/fake_openai_server.py"),
                               os.path.join(tmp, "no-replies"), port_file, os.path.join(tmp, "server.log")], env=env)
    for _ in range(100):
        if os.path.exists(port_file) and open(port_file).read().strip():
            return server, "http://127.0.0.1:%s/v1" % open(port_file).read().strip()
        time.sleep(0.1)
    server.kill()
    raise RuntimeError("the fake server did not start")


def main():
    if shutil.which("nvcc") is None and not os.path.exists("/usr/local/cuda/bin/nvcc"):
        print("nvcc not found: skipped")
        return 77
    tmp = tempfile.mkdtemp(prefix="rg-alive-")
    env = dict(os.environ, REGRAPHT_CACHE_DIR=os.path.join(tmp, "cache"))
    shutil.copy(os.path.join(SRC, "examples/saxpy.cpp"), tmp)
    src = os.path.join(tmp, "saxpy.cpp")
    tiny = os.path.join(tmp, "tiny.gguf")
    subprocess.run([WRITE_TINY, tiny], check=True, capture_output=True)
    server = None
    try:
        # 1. The embedded tiny model: alive from the first seconds, an estimate before the search.
        # --first-step none: the model's generations are what this test watches, not the rules' seed.
        args = ["optimize", src, "--function", "saxpy", "--model", tiny, "--budget", "2", "--max-tokens", "32",
                "--first-step", "none", "-o", os.path.join(tmp, "a.cu")]
        rc, seconds, out, lines = run(args, env)
        check_alive("tiny model", seconds, lines)
        if not any(l.startswith("estimate   up to ") for l in out.splitlines()):
            fail(f"tiny model: no estimate before the search: {out[:1500]}")
        if "budget 2 generations of up to 32 tokens" not in out:
            fail("tiny model: the header does not say the budget")
        # The small output fixes: the model by its file, not "file:size"; the budget said once; no
        # empty table when there is no path; the device named.
        model_line = next((l for l in out.splitlines() if l.startswith("model ")), "")
        if tiny not in model_line or ".gguf:" in model_line:
            fail(f"tiny model: the model line is {model_line!r}")
        if "stopped    the budget of 2 generations is spent (" not in out or "generations after" in out:
            fail(f"tiny model: the stop line: {[l for l in out.splitlines() if l.startswith('stopped')]}")
        if "| step |" in out and "| 1 |" not in out:
            fail("tiny model: an empty table of the winning path")
        if "| step |" not in out and "path       none" not in out:
            fail("tiny model: neither a winning path nor 'path none'")
        if not any(l.startswith("device     ") for l in out.splitlines()):
            fail("tiny model: no device line")
        r = report(os.path.join(tmp, "a.report.json"))
        if r:
            check_run_facts("tiny model", r, rc)
        if any("graph_compute" in l or "failed to decode" in l for _, l in lines):
            fail("tiny model: llama.cpp error lines on stderr")

        # 2. The same again: the replies come from the response cache, and the run says so.
        rc2, _, out2, _ = run(args, env)
        r2 = report(os.path.join(tmp, "a.report.json"))
        if "2 of 2 replies from the response cache" not in out2:
            fail(f"rerun: the cached replies are not said: {out2[-800:]}")
        if r2 and r2["run"]["cache"]["replies_cached"] != 2:
            fail(f"rerun: the report counts {r2['run']['cache']} cached replies, expected 2")

        # 3. A search that would take hours: a warning before it starts. The speed cache is made to say
        # this model generates 0.5 tokens/s here; --max-seconds 5 keeps the run short.
        speed_path = os.path.join(tmp, "cache", "speed.json")
        with open(speed_path) as f:
            speed = json.load(f)
        for m in speed["models"]:
            m["generate_tok_s"] = m["search_generate_tok_s"] = 0.5
        with open(speed_path, "w") as f:
            json.dump(speed, f)
        rc3, seconds3, out3, lines3 = run(["optimize", src, "--function", "saxpy", "--model", tiny, "--no-cache",
                                           "--first-step", "none", "--max-seconds", "5", "-o", os.path.join(tmp, "w.cu")], env)
        warn = [l for _, l in lines3 if "warning: this search may take up to" in l]
        if not warn or "more than 30 minutes" not in warn[0]:
            fail(f"a long search: no warning: {[l for _, l in lines3 if 'progress' not in l]}")
        if "budget 8 generations of up to 512 tokens" not in out3 or "--budget 200" not in out3:
            fail(f"the embedded model's default budget is not said in the header: {out3[:1200]}")
        if seconds3 > 5 + GRACE_S:
            fail(f"--max-seconds 5 ran {seconds3:.1f} s")

        # 4. A slow model server: --max-seconds LIMIT ends the run by LIMIT + 5 s with the report written.
        server, endpoint = start_server(tmp, 1000)
        model = ["--endpoint", endpoint, "--model-name", "slow", "--no-cache"]
        limit = "%g" % LIMIT
        rc4, seconds4, out4, lines4 = run(["optimize", src, "--function", "saxpy", "--max-seconds", limit,
                                           "--first-step", "none", "-o", os.path.join(tmp, "s.cu")] + model, env, stop_after=LIMIT + 60)
        check_alive(f"slow server, --max-seconds {limit}", seconds4, lines4)
        if seconds4 > LIMIT + GRACE_S:
            fail(f"--max-seconds {limit} ran {seconds4:.1f} s (at most {LIMIT + GRACE_S:.0f} s)")
        if not any("generating 1/200" in l for _, l in lines4):
            fail("slow server: no progress line says it is generating")
        r4 = report(os.path.join(tmp, "s.report.json"))
        if r4:
            check_run_facts("slow server", r4, rc4)
            if r4["stop_reason"] != f"budget: {LIMIT:.0f} s wall clock" or not r4["run"]["timed_out"]:
                fail(f"slow server: stop reason {r4['stop_reason']!r}, timed_out {r4['run']['timed_out']}")
            if not r4["attempts"] or r4["attempts"][-1]["verdict"] != "interrupted" or r4["generations"] != 0:
                fail(f"slow server: the reply in progress is not recorded as interrupted: {r4['attempts']}")
            if r4["interrupted"]:
                fail("slow server: the time limit is reported as an interruption")
        print(f"slow server: --max-seconds {limit} ended at {seconds4:.1f} s, exit {rc4}")

        # 5. Ctrl-C while the server keeps the reply (once the server holds the request: a progress
        # line comes at least every 5 s to look): interrupted, after 0 generations.
        server_log = os.path.join(tmp, "server.log")
        before = open(server_log).read().count("inflight")

        def request_out(_line):
            return open(server_log).read().count("inflight") > before

        rc5, _, out5, lines5 = run(["optimize", src, "--function", "saxpy", "--first-step", "none", "-o", os.path.join(tmp, "i.cu")] + model,
                                   env, stop_after=120, signal_when=request_out)
        if rc5 != 130:
            fail(f"Ctrl-C: exit {rc5}, expected 130")
        if "after 0 generations (the one in progress was cut short)" not in out5:
            fail(f"Ctrl-C: the stop line does not say what was cut short: {out5[-600:]}")
        r5 = report(os.path.join(tmp, "i.report.json"))
        if r5 and (not r5["attempts"] or r5["attempts"][0]["verdict"] != "interrupted"):
            fail(f"Ctrl-C: the reply in progress is not interrupted: {r5['attempts']}")
    finally:
        if server:
            server.kill()
            server.wait()
        shutil.rmtree(tmp, ignore_errors=True)
    print("optimize_alive_test:", "ok" if not errors else f"{len(errors)} problems")
    return 1 if errors else 0


sys.exit(main())
