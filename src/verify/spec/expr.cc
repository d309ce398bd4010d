#include "verify/spec/expr.h"

#include <cctype>
#include <limits>

namespace regrapht::verify {
namespace {

// A recursive-descent evaluator; with `vars` == nullptr it only checks syntax
// and collects identifiers. With `cpp` it emits C++ instead.
class Parser {
 public:
  Parser(const std::string& text, const std::map<std::string, int64_t>* vars,
         std::set<std::string>* names, std::string* cpp, const std::string& prefix)
      : s_(text), vars_(vars), names_(names), cpp_(cpp), prefix_(prefix) {}

  Result<int64_t> Run() {
    auto v = Shift();
    if (!v.ok()) return v;
    Skip();
    if (pos_ != s_.size()) return Error("unexpected '" + std::string(1, s_[pos_]) + "'");
    return v;
  }

 private:
  Status Error(const std::string& what) const {
    return Status::InvalidArgument("expression \"" + s_ + "\": " + what + " at character " +
                                   std::to_string(pos_ + 1));
  }
  void Skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool Eat(const char* tok) {
    Skip();
    size_t n = std::char_traits<char>::length(tok);
    if (s_.compare(pos_, n, tok) == 0) {
      // "<" must not eat "<<" and so on: callers ask for the longer first.
      pos_ += n;
      return true;
    }
    return false;
  }
  void Emit(const std::string& t) {
    if (cpp_) *cpp_ += t;
  }

  static Result<int64_t> Checked(__int128 v, const Parser& p) {
    if (v > std::numeric_limits<int64_t>::max() || v < std::numeric_limits<int64_t>::min()) {
      return p.Error("overflow");
    }
    return static_cast<int64_t>(v);
  }

  Result<int64_t> Shift() {
    RG_ASSIGN_OR_RETURN(int64_t v, Sum());
    while (true) {
      bool left = Eat("<<");
      bool right = !left && Eat(">>");
      if (!left && !right) return v;
      Emit(left ? "<<" : ">>");
      RG_ASSIGN_OR_RETURN(int64_t r, Sum());
      if (r < 0 || r > 62) {
        if (vars_) return Error("shift amount out of range");
      }
      if (vars_) {
        if (left) {
          RG_ASSIGN_OR_RETURN(v, Checked(static_cast<__int128>(v) << r, *this));
        } else {
          v >>= r;
        }
      }
    }
  }

  Result<int64_t> Sum() {
    RG_ASSIGN_OR_RETURN(int64_t v, Product());
    while (true) {
      Skip();
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) {
        char op = s_[pos_++];
        Emit(std::string(1, op));
        RG_ASSIGN_OR_RETURN(int64_t r, Product());
        if (vars_) {
          __int128 x = op == '+' ? static_cast<__int128>(v) + r : static_cast<__int128>(v) - r;
          RG_ASSIGN_OR_RETURN(v, Checked(x, *this));
        }
      } else {
        return v;
      }
    }
  }

  Result<int64_t> Product() {
    RG_ASSIGN_OR_RETURN(int64_t v, Unary());
    while (true) {
      Skip();
      if (pos_ < s_.size() && (s_[pos_] == '*' || s_[pos_] == '/' || s_[pos_] == '%')) {
        char op = s_[pos_++];
        Emit(std::string(1, op));
        RG_ASSIGN_OR_RETURN(int64_t r, Unary());
        if (vars_) {
          if (op == '*') {
            RG_ASSIGN_OR_RETURN(v, Checked(static_cast<__int128>(v) * r, *this));
          } else {
            if (r == 0) return Error("division by zero");
            v = op == '/' ? v / r : v % r;
          }
        }
      } else {
        return v;
      }
    }
  }

  Result<int64_t> Unary() {
    Skip();
    if (pos_ < s_.size() && s_[pos_] == '-') {
      ++pos_;
      Emit("-");
      RG_ASSIGN_OR_RETURN(int64_t v, Unary());
      return -v;
    }
    return Primary();
  }

  Result<int64_t> Primary() {
    Skip();
    if (pos_ >= s_.size()) return Error("unexpected end");
    char c = s_[pos_];
    if (c == '(') {
      ++pos_;
      Emit("(");
      RG_ASSIGN_OR_RETURN(int64_t v, Shift());
      if (!Eat(")")) return Error("expected ')'");
      Emit(")");
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t start = pos_;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      std::string digits = s_.substr(start, pos_ - start);
      if (digits.size() > 18) return Error("number too large");
      Emit("int64_t(" + digits + ")");
      return std::stoll(digits);
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t start = pos_;
      while (pos_ < s_.size() &&
             (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) {
        ++pos_;
      }
      std::string name = s_.substr(start, pos_ - start);
      Skip();
      if ((name == "min" || name == "max") && pos_ < s_.size() && s_[pos_] == '(') {
        ++pos_;
        Emit("std::" + name + "<int64_t>(");
        RG_ASSIGN_OR_RETURN(int64_t a, Shift());
        if (!Eat(",")) return Error("expected ',' in " + name + "()");
        Emit(", ");
        RG_ASSIGN_OR_RETURN(int64_t b, Shift());
        if (!Eat(")")) return Error("expected ')' after " + name + "(a, b");
        Emit(")");
        return name == "min" ? std::min(a, b) : std::max(a, b);
      }
      if (names_) names_->insert(name);
      Emit(prefix_ + name);
      if (!vars_) return int64_t{1};
      auto it = vars_->find(name);
      if (it == vars_->end()) return Error("unknown variable '" + name + "'");
      return it->second;
    }
    return Error("unexpected '" + std::string(1, c) + "'");
  }

  const std::string& s_;
  size_t pos_ = 0;
  const std::map<std::string, int64_t>* vars_;
  std::set<std::string>* names_;
  std::string* cpp_;
  std::string prefix_;
};

}  // namespace

Result<Expr> Expr::Parse(const std::string& text) {
  Expr e;
  e.text_ = text;
  if (text.find_first_not_of(" \t") == std::string::npos) {
    return Status::InvalidArgument("expression is empty");
  }
  Parser p(text, nullptr, &e.vars_, nullptr, "");
  auto r = p.Run();
  if (!r.ok()) return r.status();
  return e;
}

Result<int64_t> Expr::Eval(const std::map<std::string, int64_t>& vars) const {
  Parser p(text_, &vars, nullptr, nullptr, "");
  return p.Run();
}

std::string Expr::ToCpp(const std::string& prefix) const {
  std::string out;
  Parser p(text_, nullptr, nullptr, &out, prefix);
  (void)p.Run();
  return "(" + out + ")";
}

}  // namespace regrapht::verify
