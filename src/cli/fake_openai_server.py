#!/usr/bin/env python3
"""A tiny OpenAI-compatible chat server with canned replies, for CLI tests.

Usage: fake_openai_server.py REPLIES_DIR PORT_FILE LOG_FILE [DOWN_FILE]

Answers POST /v1/chat/completions by looking at the prompt:
  - a relabel request (system prompt about the technique catalogue): a JSON
    list with one {"existed", "method"} per step, "yes" for the methods in
    RELABEL below and "no" for the others;
  - "Optimize the function NAME ...": the canned trajectory for NAME, built
    from REPLIES_DIR/<kernel>_stepN.cu; a function without one gets prose;
  - any other request (a search step's prompt), when $FAKE_SEARCH_REPLY names a
    file: that file in a ```cuda block (and, when $FAKE_PROMPT_LOG names a file,
    the request's messages appended to it as one JSON line);
  - any other request, when $FAKE_SEARCH_REPLIES names a folder of NAME.cu
    files: for a request whose messages mention NAME( and whose seed is even,
    that file in a ```cuda block; otherwise prose naming the seed (no code).
    Logged as "search seed=SEED".
  - any other request, when $FAKE_ECHO is set: the step prompt's current code
    in a ```cuda block, unchanged (a model that applies nothing), logged as
    "echo"; a request without current code gets prose, logged as "echo none".
Listens on 127.0.0.1 on a free port, written to PORT_FILE; appends one line
per request ("trajectory NAME" or "relabel") to LOG_FILE. While DOWN_FILE
exists, trajectory requests for the function names it lists (one a line) get
HTTP 400, which the client does not retry: an endpoint failure, quickly.
Requests are served concurrently; GET /v1/models lists one model. $FAKE_DELAY_S: seconds every chat reply
waits first (a slow model), logged as "inflight N": the requests waiting at
that moment, itself included (bench_concurrency_test checks --max-in-flight). $FAKE_STATUS: every chat request gets this HTTP
status instead (a failing replica), logged as "status CODE".

Faults ($FAKE_MODE), for endpoint_fault_test.sh; each chat request is
numbered from 1 and logged as "fault MODE" when the fault applies:
  hang          never answers (holds the connection open)
  drip          status 200 and a long Content-Length, then one byte every
                $FAKE_DRIP_S seconds (default 0.2): never idle, never done
  500           HTTP 500 with a JSON error
  429           HTTP 429 with "Retry-After: 1"
  400           HTTP 400 with a JSON error
  html          HTTP 502 with an HTML page (a proxy in front of a dead server)
  invalid-json  HTTP 200 with a body that is not JSON
  close         HTTP 200, a Content-Length, half the body, then the connection closes
  number        HTTP 200, a well-formed reply whose message content is a number
$FAKE_GOOD=N: the first N chat requests are answered normally, the fault
applies from then on. $FAKE_FAIL_TIMES=K: the fault applies to K requests
only, then requests are answered normally again (500-then-200).
"""
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

REPLIES_DIR, PORT_FILE, LOG_FILE = sys.argv[1], sys.argv[2], sys.argv[3]
LOG_LOCK = threading.Lock()
INFLIGHT_LOCK = threading.Lock()
IN_FLIGHT = 0
DOWN_FILE = sys.argv[4] if len(sys.argv) > 4 else None

# function -> (file prefix, [(method, think, detail)])
TRAJECTORIES = {
    "saxpy": ("saxpy", [
        ("Naive CUDA port with one thread per element",
         "Every element is independent.", "Launch one thread per index."),
        ("Grid-stride loop",
         "A capped grid covers any n.", "Each thread strides by the grid size."),
    ]),
    "sumOfSquares": ("sum_of_squares", [
        ("thread_mapping", "Squares are independent; the sum needs atomics.",
         "One thread per element adds its square with atomicAdd."),
        ("Lane-to-lane exchange tree",
         "One atomic per element serialises.",
         "Shuffle-down within warps, combine warps in shared memory, one atomicAdd per block."),
        ("Loop unrolling", "The shuffle loop has a fixed trip count.",
         "Unroll the shuffle loops."),
    ]),
}
# Methods the "model" places in the catalogue when relabelling.
RELABEL = {
    "Lane-to-lane exchange tree": "Warp-shuffle reduction",
}


_counter_lock = threading.Lock()
_counter = [0]


def next_request_number():
    with _counter_lock:
        _counter[0] += 1
        return _counter[0]


def fault_applies(number):
    mode = os.environ.get("FAKE_MODE", "")
    if not mode:
        return ""
    good = int(os.environ.get("FAKE_GOOD", "0") or 0)
    times = os.environ.get("FAKE_FAIL_TIMES", "")
    if number <= good:
        return ""
    if times and number > good + int(times):
        return ""
    return mode


def log(line):
    with LOG_LOCK:
        with open(LOG_FILE, "a") as f:
            f.write(line + "\n")


def delay():
    """Waits $FAKE_DELAY_S, counted as a request in flight; logs
    "inflight N": the requests in flight when it began, itself included."""
    seconds = float(os.environ.get("FAKE_DELAY_S", "0") or 0)
    if seconds <= 0:
        return
    global IN_FLIGHT
    with INFLIGHT_LOCK:
        IN_FLIGHT += 1
        log("inflight %d" % IN_FLIGHT)
    try:
        time.sleep(seconds)
    finally:
        with INFLIGHT_LOCK:
            IN_FLIGHT -= 1


def seeded_reply(body, folder):
    """A reply that depends on the request's seed: code or prose."""
    seed = int(body.get("seed", 0))
    text = "\n".join(m.get("content", "") for m in body.get("messages", []))
    for name in sorted(os.listdir(folder)):
        stem, ext = os.path.splitext(name)
        if ext == ".cu" and stem + "(" in text and seed % 2 == 0:
            with open(os.path.join(folder, name)) as f:
                return seed, "Here is the optimized version.\n```cuda\n" + f.read() + "```\n"
    return seed, "I would rather explain than write code today (seed %d)." % seed


def current_code(user):
    """The code a step prompt shows as "Current code:" (data/prompts/step.txt), or None."""
    marker = "Current code:\n```cuda\n"
    at = user.find(marker)
    if at < 0:
        return None
    start = at + len(marker)
    end = user.find("\n```", start)
    return user[start:end] if end >= 0 else None


def trajectory_reply(function):
    prefix, steps = TRAJECTORIES[function]
    out = []
    for i, (method, think, detail) in enumerate(steps, 1):
        with open(os.path.join(REPLIES_DIR, "%s_step%d.cu" % (prefix, i))) as f:
            code = f.read()
        out.append({"think": think, "method": method, "detail": detail, "code": code})
    return "Here is the step-by-step optimization.\n```json\n" + json.dumps(out, indent=1) + "\n```\n"


def relabel_reply(user):
    process = json.loads(user)["process"]
    labels = []
    for step in process:
        m = step["method"]
        if m in RELABEL:
            labels.append({"existed": "yes", "method": RELABEL[m]})
        else:
            labels.append({"existed": "no", "method": m})
    return json.dumps(labels)


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        # GET /v1/models, as vLLM and llama-server answer it (readiness checks).
        if not self.path.endswith("/models"):
            self.send_error(404)
            return
        data = json.dumps({"object": "list", "data": [{"id": "test-model", "object": "model"}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        if not self.path.endswith("/chat/completions"):
            self.send_error(404)
            return
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        fault = fault_applies(next_request_number())
        if fault:
            log("fault " + fault)
            self.fault(fault, body)
            return
        delay()
        status = os.environ.get("FAKE_STATUS", "")
        if status:
            log("status " + status)
            data = json.dumps({"error": {"message": "this replica is unwell (test)"}}).encode()
            self.send_response(int(status))
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        messages = body["messages"]
        system = next((m["content"] for m in messages if m["role"] == "system"), "")
        user = messages[-1]["content"]
        if "catalogue of CUDA optimization techniques" in system:
            log("relabel")
            text = relabel_reply(user)
        else:
            marker = "Optimize the function "
            at = user.find(marker)
            search_reply = os.environ.get("FAKE_SEARCH_REPLY", "")
            search_replies = os.environ.get("FAKE_SEARCH_REPLIES", "")
            if at < 0 and os.environ.get("FAKE_ECHO", ""):
                code = current_code(user)
                log("echo" if code is not None else "echo none")
                text = "I changed nothing.\n```cuda\n" + code + "\n```\n" if code is not None else "No code."
                self.reply(body, text)
                return
            if at < 0 and search_replies:
                seed, text = seeded_reply(body, search_replies)
                log("search seed=%d" % seed)
                self.reply(body, text)
                return
            if at < 0 and search_reply:
                log("search")
                prompt_log = os.environ.get("FAKE_PROMPT_LOG", "")
                if prompt_log:
                    with open(prompt_log, "a") as f:
                        f.write(json.dumps(body.get("messages", [])) + "\n")
                with open(search_reply) as f:
                    text = "Here is the optimized version.\n```cuda\n" + f.read() + "```\n"
                self.reply(body, text)
                return
            function = user[at + len(marker):].split()[0] if at >= 0 else ""
            if DOWN_FILE and os.path.exists(DOWN_FILE):
                with open(DOWN_FILE) as f:
                    if function in f.read().split():
                        log("down " + function)
                        self.send_error(400, "the model is down (test)")
                        return
            log("trajectory " + function)
            if function in TRAJECTORIES:
                text = trajectory_reply(function)
            else:
                text = "I am sorry, I cannot optimize %s today." % function
        self.reply(body, text)

    def send_body(self, status, data, content_type="application/json", headers=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def fault(self, mode, body):
        error = json.dumps({"error": {"message": "injected fault: " + mode}}).encode()
        try:
            if mode == "hang":
                while True:
                    time.sleep(1)
            elif mode == "drip":
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", "100000000")
                self.end_headers()
                self.wfile.flush()
                while True:
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    time.sleep(float(os.environ.get("FAKE_DRIP_S", "0.2") or 0.2))
            elif mode in ("500", "400"):
                self.send_body(int(mode), error)
            elif mode == "429":
                self.send_body(429, error, headers=[("Retry-After", "1")])
            elif mode == "html":
                page = b"<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>"
                self.send_body(502, page, "text/html")
            elif mode == "invalid-json":
                self.send_body(200, b"<html><body>Welcome to nginx!</body></html>")
            elif mode == "close":
                data = json.dumps({"choices": [{"message": {"role": "assistant", "content": "x" * 1000}}]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data[: len(data) // 2])
                self.wfile.flush()
                self.close_connection = True
                self.connection.shutdown(2)
            elif mode == "number":
                reply = {"id": "x", "object": "chat.completion", "model": body.get("model", ""),
                         "choices": [{"index": 0, "message": {"role": "assistant", "content": 42},
                                      "finish_reason": "stop"}],
                         "usage": {"prompt_tokens": 10, "completion_tokens": 1}}
                self.send_body(200, json.dumps(reply).encode())
            else:
                self.send_body(500, json.dumps({"error": "unknown FAKE_MODE " + mode}).encode())
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass  # the client gave up: what a deadline is for

    def reply(self, body, text):
        reply = {
            "id": "chatcmpl-test", "object": "chat.completion", "model": body.get("model", ""),
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                         "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
        }
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


ThreadingHTTPServer.daemon_threads = True
# socketserver's default backlog of 5 drops the SYNs of a burst of concurrent
# clients, which then wait a second to retry: real servers queue far more.
ThreadingHTTPServer.request_queue_size = 128
server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(PORT_FILE + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.replace(PORT_FILE + ".tmp", PORT_FILE)
server.serve_forever()
