// Tests only: a strict little HTML/SVG parser, so tests check a page's
// structure (tables, rows, figures) rather than its bytes. Fails on a close
// tag that does not match the open one, and on anything left open.
#pragma once

#include <cctype>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace regrapht::testing_util {

struct Element {
  std::string tag;
  std::map<std::string, std::string> attrs;
  std::vector<std::unique_ptr<Element>> children;
  std::string text;  // this element's own text, concatenated

  std::string Attr(const std::string& k) const { return attrs.count(k) ? attrs.at(k) : ""; }
  bool HasClass(const std::string& c) const {
    const std::string cls = " " + Attr("class") + " ";
    return cls.find(" " + c + " ") != std::string::npos;
  }
  // Every text below, in document order.
  std::string AllText() const {
    std::string s = text;
    for (const auto& c : children) s += c->AllText();
    return s;
  }
  const Element* ById(const std::string& id) const {
    if (Attr("id") == id) return this;
    for (const auto& c : children) {
      if (const Element* e = c->ById(id)) return e;
    }
    return nullptr;
  }
  // Descendants with `tag` (and class `cls` when not empty), document order.
  std::vector<const Element*> All(const std::string& t, const std::string& cls = "") const {
    std::vector<const Element*> out;
    for (const auto& c : children) {
      if (c->tag == t && (cls.empty() || c->HasClass(cls))) out.push_back(c.get());
      auto sub = c->All(t, cls);
      out.insert(out.end(), sub.begin(), sub.end());
    }
    return out;
  }
};

// The attributes of the start tag `e` from s[*j] up to its '>' or "/>",
// leaving *j after it; the reason on malformed input, else "".
inline std::string ParseAttributes(std::string_view s, size_t* pos, Element* e, bool* self_closing) {
  size_t& j = *pos;
  while (true) {
    while (j < s.size() && std::isspace(static_cast<unsigned char>(s[j]))) ++j;
    if (j >= s.size()) return "unclosed start tag <" + e->tag;
    if (s[j] == '>') {
      ++j;
      return "";
    }
    if (s.compare(j, 2, "/>") == 0) {
      *self_closing = true;
      j += 2;
      return "";
    }
    size_t k = j;
    while (k < s.size() && !std::isspace(static_cast<unsigned char>(s[k])) && s[k] != '=' &&
           s[k] != '>' && s[k] != '/') {
      ++k;
    }
    std::string name(s.substr(j, k - j));
    if (name.empty()) return "bad attribute in <" + e->tag;
    std::string value;
    if (k < s.size() && s[k] == '=') {
      char q = s[k + 1];
      if (q != '"' && q != '\'') return "unquoted attribute " + name;
      size_t end = s.find(q, k + 2);
      if (end == std::string_view::npos) return "unclosed attribute " + name;
      value = std::string(s.substr(k + 2, end - k - 2));
      k = end + 1;
    }
    if (e->attrs.count(name)) return "attribute " + name + " twice in <" + e->tag;
    e->attrs[name] = value;
    j = k;
  }
}

// nullopt and `error` set on malformed input.
inline std::unique_ptr<Element> ParseHtml(std::string_view s, std::string* error) {
  static const std::set<std::string> kVoid = {"meta", "br",    "hr",  "img",
                                              "link", "input", "col", "wbr"};
  auto root = std::make_unique<Element>();
  root->tag = "#root";
  std::vector<Element*> stack = {root.get()};
  size_t i = 0;
  auto fail = [&](const std::string& m) {
    *error = m + " at byte " + std::to_string(i);
    return nullptr;
  };
  while (i < s.size()) {
    if (s[i] != '<') {
      size_t j = s.find('<', i);
      if (j == std::string_view::npos) j = s.size();
      stack.back()->text += std::string(s.substr(i, j - i));
      i = j;
      continue;
    }
    if (s.compare(i, 4, "<!--") == 0) {
      size_t j = s.find("-->", i);
      if (j == std::string_view::npos) return fail("unclosed comment");
      i = j + 3;
      continue;
    }
    if (s.compare(i, 2, "<!") == 0 || s.compare(i, 2, "<?") == 0) {
      size_t j = s.find('>', i);
      if (j == std::string_view::npos) return fail("unclosed declaration");
      i = j + 1;
      continue;
    }
    if (s.compare(i, 2, "</") == 0) {
      size_t j = s.find('>', i);
      if (j == std::string_view::npos) return fail("unclosed end tag");
      std::string name(s.substr(i + 2, j - i - 2));
      if (stack.size() == 1 || stack.back()->tag != name) {
        return fail("</" + name + "> closes <" + stack.back()->tag + ">");
      }
      stack.pop_back();
      i = j + 1;
      continue;
    }
    // A start tag.
    size_t j = i + 1;
    while (j < s.size() &&
           (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '-' || s[j] == ':'))
      ++j;
    auto e = std::make_unique<Element>();
    e->tag = std::string(s.substr(i + 1, j - i - 1));
    if (e->tag.empty()) return fail("bad tag");
    bool self_closing = false;
    if (std::string why = ParseAttributes(s, &j, e.get(), &self_closing); !why.empty()) return fail(why);
    Element* raw = e.get();
    stack.back()->children.push_back(std::move(e));
    i = j;
    if (raw->tag == "style" || raw->tag == "script") {
      size_t end = s.find("</" + raw->tag + ">", i);
      if (end == std::string_view::npos) return fail("unclosed <" + raw->tag + ">");
      raw->text = std::string(s.substr(i, end - i));
      i = end + raw->tag.size() + 3;
      continue;
    }
    if (!self_closing && !kVoid.count(raw->tag)) stack.push_back(raw);
  }
  if (stack.size() != 1) return fail("<" + stack.back()->tag + "> left open");
  return root;
}

}  // namespace regrapht::testing_util
