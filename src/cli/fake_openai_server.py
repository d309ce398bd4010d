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
Listens on 127.0.0.1 on a free port, written to PORT_FILE; appends one line
per request ("trajectory NAME" or "relabel") to LOG_FILE. While DOWN_FILE
exists, trajectory requests for the function names it lists (one a line) get
HTTP 400, which the client does not retry: an endpoint failure, quickly.
Requests are served concurrently; GET /v1/models lists one model. $FAKE_DELAY_S: seconds every chat reply
waits first (a slow model). $FAKE_STATUS: every chat request gets this HTTP
status instead (a failing replica), logged as "status CODE".
"""
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

REPLIES_DIR, PORT_FILE, LOG_FILE = sys.argv[1], sys.argv[2], sys.argv[3]
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


def log(line):
    with open(LOG_FILE, "a") as f:
        f.write(line + "\n")


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
        time.sleep(float(os.environ.get("FAKE_DELAY_S", "0") or 0))
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
