#include "llm/http.h"

#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <mutex>

#include "core/strings.h"

namespace regrapht::llm {
namespace {

// Redirects followed before a request is called a redirect loop.
constexpr int kMaxRedirects = 10;

using SteadyClock = std::chrono::steady_clock;

struct Transfer {
  const HttpRequest* request;
  HttpResponse* response;
  bool aborted_by_sink = false;
  bool timed_out = false;
  bool total_timed_out = false;
  bool cancelled = false;
  int64_t last_bytes = -1;
  int64_t received = 0;  // body bytes so far
  SteadyClock::time_point start = SteadyClock::now();
  SteadyClock::time_point last_activity = start;
};

size_t OnBody(char* data, size_t size, size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  size_t bytes = size * n;
  if (t->request->on_data) {
    if (!t->request->on_data(std::string_view(data, bytes))) {
      t->aborted_by_sink = true;
      return 0;  // makes curl fail with CURLE_WRITE_ERROR
    }
  } else {
    t->response->body.append(data, bytes);
  }
  return bytes;
}

size_t OnHeader(char* data, size_t size, size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  std::string_view line(data, size * n);
  if (StartsWith(line, "HTTP/")) {  // a new response (redirect, 100 Continue)
    t->response->headers.clear();
    size_t sp = line.find(' ');
    if (sp != std::string_view::npos && t->request->on_status) {
      if (auto code = ParseInt(line.substr(sp + 1, 3))) t->request->on_status(static_cast<long>(*code));
    }
  }
  size_t colon = line.find(':');
  if (colon != std::string_view::npos) {
    std::string name = ToLower(Trim(line.substr(0, colon)));
    t->response->headers[name] = std::string(Trim(line.substr(colon + 1)));
  }
  return size * n;
}

int OnProgress(void* user, curl_off_t dltotal, curl_off_t dlnow, curl_off_t, curl_off_t ulnow) {
  auto* t = static_cast<Transfer*>(user);
  if (t->request->cancel != nullptr && t->request->cancel->load()) {
    t->cancelled = true;
    return 1;
  }
  int64_t bytes = static_cast<int64_t>(dlnow + ulnow);
  t->received = static_cast<int64_t>(dlnow);
  auto now = SteadyClock::now();
  if (t->request->total_timeout_s > 0 &&
      std::chrono::duration<double>(now - t->start).count() > t->request->total_timeout_s) {
    t->total_timed_out = true;
    return 1;
  }
  if (bytes != t->last_bytes) {
    t->last_bytes = bytes;
    t->last_activity = now;
  } else if (t->request->read_timeout_s > 0 &&
             std::chrono::duration<double>(now - t->last_activity).count() >
                 t->request->read_timeout_s) {
    t->timed_out = true;
    return 1;
  }
  if (t->request->on_progress) t->request->on_progress(dlnow, dltotal > 0 ? dltotal : -1);
  return 0;
}

std::string FormatSeconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g s", s);
  return buf;
}

void GlobalInit() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

// Sets every option of the transfer of `request` on `curl`: redirects,
// timeouts, callbacks into *t, and the body of a POST.
void SetTransferOptions(CURL* curl, const HttpRequest& request, Transfer* t, curl_slist* headers,
                        char* error) {
  curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(curl, CURLOPT_MAXREDIRS, static_cast<long>(kMaxRedirects));
  // A POST stays a POST through 301/302/303 (curl would resend it as a GET,
  // whose answer is no chat completion).
  curl_easy_setopt(curl, CURLOPT_POSTREDIR, static_cast<long>(CURL_REDIR_POST_ALL));
  curl_easy_setopt(curl, CURLOPT_USERAGENT, "regrapht/0.1");
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(std::max(1.0, request.connect_timeout_s * 1000)));
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, OnBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, t);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, OnHeader);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, t);
  curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, OnProgress);
  curl_easy_setopt(curl, CURLOPT_XFERINFODATA, t);
  // A second, coarse guard on silence in case progress callbacks stall.
  if (request.read_timeout_s > 0) {
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME,
                     static_cast<long>(request.read_timeout_s) + 2);
  }
  // A backstop for the total deadline should progress callbacks stall.
  if (request.total_timeout_s > 0) {
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS,
                     static_cast<long>(std::max(1.0, (request.total_timeout_s + 2) * 1000)));
  }
  if (request.method == "POST") {
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
                     static_cast<curl_off_t>(request.body.size()));
  }
}

// The error of a failed transfer (rc not CURLE_OK), by what stopped it:
// cancel, deadline, read timeout, connect timeout, sink, redirects, network.
Status TransferError(const HttpRequest& request, const HttpResponse& response, const Transfer& t,
                     CURLcode rc, const char* error) {
  std::string what = request.method + " " + request.url + ": ";
  if (t.cancelled) return Status::Cancelled(what + "cancelled");
  if (t.total_timed_out ||
      (rc == CURLE_OPERATION_TIMEDOUT && request.total_timeout_s > 0 &&
       std::chrono::duration<double>(SteadyClock::now() - t.start).count() >= request.total_timeout_s)) {
    return Status::DeadlineExceeded(what + "no complete reply within " +
                                    FormatSeconds(request.total_timeout_s) + " (total deadline; " +
                                    std::to_string(t.received) + " bytes of the reply received)");
  }
  if (t.timed_out) {
    return Status::DeadlineExceeded(what + "no data for " + FormatSeconds(request.read_timeout_s) +
                                    " (read timeout)");
  }
  if (rc == CURLE_OPERATION_TIMEDOUT) {
    if (response.status == 0 && t.last_bytes <= 0) {
      return Status::Unavailable(what + "connect timed out after " +
                                 FormatSeconds(request.connect_timeout_s));
    }
    return Status::DeadlineExceeded(what + "transfer stalled (read timeout)");
  }
  if (t.aborted_by_sink) return Status::IoError(what + "could not store the data received");
  if (rc == CURLE_TOO_MANY_REDIRECTS) {
    return Status::InvalidArgument(what + "a redirect loop: more than " + std::to_string(kMaxRedirects) +
                                   " redirects without an answer (the server sends the request on and on; "
                                   "give the final URL as the endpoint)");
  }
  std::string msg = error[0] ? error : curl_easy_strerror(rc);
  switch (rc) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_SSL_CONNECT_ERROR:
      return Status::Unavailable(what + msg);
    default:
      return Status::IoError(what + msg);
  }
}

}  // namespace

Result<HttpResponse> HttpFetch(const HttpRequest& request) {
  GlobalInit();
  CURL* curl = curl_easy_init();
  if (curl == nullptr) return Status::Internal("curl_easy_init failed");
  HttpResponse response;
  Transfer t{&request, &response};
  curl_slist* headers = nullptr;
  for (const auto& h : request.headers) headers = curl_slist_append(headers, h.c_str());
  char error[CURL_ERROR_SIZE] = {};
  SetTransferOptions(curl, request, &t, headers, error);
  CURLcode rc = curl_easy_perform(curl);
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  if (rc == CURLE_OK) return response;
  return TransferError(request, response, t, rc, error);
}

}  // namespace regrapht::llm
