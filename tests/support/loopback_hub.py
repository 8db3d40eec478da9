"""The Hub on 127.0.0.1, answering as huggingface.co does, for downloads without the network.

For GET or HEAD /{repo}/resolve/{revision}/{file}: X-Repo-Commit and an ETag (the git blob id);
an LFS file (model.safetensors, pytorch_model.bin) is answered by a 302 to a CDN on another
origin, with X-Linked-Etag (its sha256) and X-Linked-Size, so the client fetches the bytes
from there, as it does from the Hub's CDN.
"""
from __future__ import annotations

import contextlib
import hashlib
import http.server
import re
import threading

from support.hub_fixtures import COMMIT, LFS_FILES, REPO, etag

MAX_REQUESTS = 50  # a loopback Hub answers no more than this, then 503s


class _Handler(http.server.BaseHTTPRequestHandler):
    timeout = 10  # seconds a connection may sit idle

    def do_HEAD(self):
        self.server.answer(self, body=False)

    def do_GET(self):
        self.server.answer(self, body=True)

    def reply(self, status: int, headers: dict, data: bytes, body: bool):
        self.send_response(status)
        for key, value in (headers | {"Content-Length": str(len(data))}).items():
            self.send_header(key, value)
        self.end_headers()
        if body:
            self.wfile.write(data)

    def log_message(self, *args):
        pass


class _Hub(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def answer(self, handler, body: bool):
        self.requests.append((self.role, handler.command, handler.path))
        if len(self.requests) > MAX_REQUESTS:
            return handler.reply(503, {}, b"", body)
        return (self.resolve if self.role == "hub" else self.serve_blob)(handler, body)

    def resolve(self, handler, body):
        m = re.fullmatch(r"/(.+?)/resolve/([^/]+)/([^/?]+)", handler.path)
        data = self.files.get(m[3]) if m and m[1] == REPO else None
        if data is None:
            return handler.reply(404, {"X-Error-Code": "EntryNotFound" if m and m[1] == REPO else "RepoNotFound"},
                                 b"", body)
        headers = {"X-Repo-Commit": self.commit, "ETag": f'"{etag(m[3], data)}"'}
        if m[3] not in LFS_FILES:
            return handler.reply(200, headers, data, body)
        sha = self.linked_etags.get(m[3], etag(m[3], data))  # what the Hub says the bytes hash to
        location = f"{self.cdn}/repos/{sha[:2]}/{sha}?response-content-disposition=attachment%3B+filename%3D{m[3]}"
        note = f"Found. Redirecting to {location}".encode()
        return handler.reply(302, headers | {"Location": location, "X-Linked-Etag": f'"{sha}"',
                                             "X-Linked-Size": str(len(data)), "ETag": f'W/"{len(note):x}"'},
                             note, body)

    def serve_blob(self, handler, body):
        sha = handler.path.split("?")[0].rsplit("/", 1)[-1]
        data = next((d for n, d in self.files.items() if self.linked_etags.get(n, etag(n, d)) == sha), None)
        if data is None:
            return handler.reply(404, {}, b"", body)
        return handler.reply(200, {"ETag": f'"{hashlib.md5(data).hexdigest()}"'}, data, body)


@contextlib.contextmanager
def loopback_hub(files: dict[str, bytes], linked_etags: dict | None = None, commit: str = COMMIT):
    """The Hub and its CDN on 127.0.0.1 (two origins); yields (endpoint URL, the requests seen:
    (hub or cdn, method, path)), then stops both. ``linked_etags``: the sha256 the Hub states
    for a file, when it should differ from the bytes it sends."""
    requests, servers = [], []
    for role in ("cdn", "hub"):
        server = _Hub(("127.0.0.1", 0), _Handler)
        server.role, server.files, server.requests, server.commit = role, files, requests, commit
        server.linked_etags = linked_etags or {}
        servers.append(server)
    servers[1].cdn = f"http://127.0.0.1:{servers[0].server_address[1]}"
    threads = [threading.Thread(target=s.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
               for s in servers]
    for thread in threads:
        thread.start()
    try:
        yield f"http://127.0.0.1:{servers[1].server_address[1]}", requests
    finally:
        for server, thread in zip(servers, threads):
            server.shutdown()
            server.server_close()
            thread.join(timeout=5)
