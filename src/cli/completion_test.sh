#!/bin/sh
# Shell completion generated from the command table (regrapht completion):
#   completion_test.sh REGRAPHT bash   sources the script in bash: `complete -p
#     regrapht`, and COMPREPLY for subcommands, options, option values, files;
#   completion_test.sh REGRAPHT zsh    loads it in zsh (compinit, bashcompinit)
#     and asks the same through zsh's compgen, then types real <TAB>s into an
#     interactive zsh (zpty) with the script in $fpath (exit 77, skipped,
#     without zsh).
set -eu
BIN=$1
SHELL_NAME=${2:-bash}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
command -v "$SHELL_NAME" >/dev/null 2>&1 || { echo "SKIP: $SHELL_NAME is not installed (scripts/install-deps.sh)"; exit 77; }
"$BIN" completion "$SHELL_NAME" -o "$T/script"
"$BIN" completion "$SHELL_NAME" > "$T/stdout"
cmp -s "$T/script" "$T/stdout" || { echo "FAIL: completion -o and stdout differ"; exit 1; }
"$BIN" completion fish > "$T/fish"
grep -q "complete -c regrapht -n '__fish_use_subcommand' -a 'optimize'" "$T/fish" ||
  { echo "FAIL: the fish script lacks the optimize subcommand"; exit 1; }
"$BIN" completion tcsh >/dev/null 2>&1 && { echo "FAIL: completion tcsh accepted"; exit 1; }
mkdir "$T/files" && touch "$T/files/report-a.json" "$T/files/other.txt"
# Every subcommand in `regrapht --help` is offered after `regrapht `.
SUBS=$("$BIN" --help | sed -n '/^Subcommands:/,$p' | sed -n 's/^  \([a-z-]*\) .*/\1/p' | sort | tr '\n' ' ')
[ -n "$SUBS" ] || { echo "FAIL: no subcommands parsed from --help"; exit 1; }

# t EXPECTED WORD...: completing the last WORD after `regrapht` offers
# exactly EXPECTED (bash: sorted, space separated) or at least EXPECTED (zsh,
# whose compgen leaves prefix matching to zsh itself).
if [ "$SHELL_NAME" = bash ]; then
  cat > "$T/run" <<'EOS'
source "$1"
complete -p regrapht | grep -q -- '-F _regrapht' || { echo "FAIL: complete -p regrapht: $(complete -p regrapht 2>&1)"; exit 1; }
fails=0
t() {
  local expected=$1; shift
  COMP_WORDS=(regrapht "$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
  _regrapht
  local got
  got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//')
  if [ "$got" != "$expected" ]; then echo "FAIL: regrapht $* <TAB>: got '$got', expected '$expected'"; fails=$((fails + 1)); fi
}
EOS
else
  cat > "$T/run" <<'EOS'
autoload -U compinit && compinit -u -D
source "$1"
[[ ${_comps[regrapht]} == *_regrapht* ]] || { echo "FAIL: zsh has no completion for regrapht: '${_comps[regrapht]}'"; exit 1; }
fails=0
t() {
  local expected=$1; shift
  local -a words COMP_WORDS COMPREPLY
  words=(regrapht "$@")
  local CURRENT=${#words}
  local -x COMP_CWORD=$((CURRENT - 1))
  local PREFIX=${words[CURRENT]}  # what zsh's completion system sets; bashcompinit's compgen -f reads it
  COMP_WORDS=("${words[@]}")
  local got e
  got=" $(compgen -F _regrapht -- "${words[CURRENT]}" | tr '\n' ' ') "
  for e in ${=expected}; do
    if [[ $got != *" $e "* ]]; then echo "FAIL: regrapht $* <TAB>: '$e' not in '$got'"; fails=$((fails + 1)); fi
  done
}
EOS
fi
cat >> "$T/run" <<EOS
t 'graph' gr
t 'build export import relabel retrieval-eval show stats techniques' graph ''
t '--budget' optimize --bu
t '--method' optimize --budget 3 --me
t 'bm25 embeddings' optimize --retrieval ''
t 'csv html json md' report --format ''
t '--json' graph stats --js
t '--help --json --quiet --verbose' version --
t '$T/files/report-a.json' optimize --report '$T/files/rep'
t '$T/files/report-a.json' graph build --kernels '$T/files/rep'
t '$T/files' verify --problem '$T/fi'
t '' optimize --budget ''
t '$(echo $SUBS | sed 's/ *$//')' ''
exit \$fails
EOS
"$SHELL_NAME" "$T/run" "$T/script" || { echo "completion_test ($SHELL_NAME): FAILED"; exit 1; }

if [ "$SHELL_NAME" = zsh ]; then
  # Real <TAB>s in an interactive zsh (zpty) with the script installed in $fpath as cmake --install
  # does: the first <TAB> autoloads it and completes too.
  mkdir "$T/fpath" && cp "$T/script" "$T/fpath/_regrapht"
  cat > "$T/tty.zsh" <<'EOS'
zmodload zsh/zpty || exit 1
zpty z zsh -f -i
zpty -w z "PS1='> '; fpath=($1 \$fpath); autoload -U compinit; compinit -u -D; path=($2 \$path)"
tab() {  # types TEXT and <TAB>, waits (up to 30 s: a loaded machine is slow to autoload and run
        # regrapht) for WANT on the line zsh shows, prints that line (escapes removed), clears it
  local all= chunk line= i
  zpty -w -n z "$1"$'\t'
  for i in {1..150}; do
    while zpty -r -t z chunk; do all+=$chunk; done
    line=${${all//$'\e'\[[0-9?;]#[a-zA-Z]/}//[$'\r\a\b']/}
    [[ $line == *"$2"* ]] && break
    sleep 0.2
  done
  print -r -- "$line"
  zpty -w -n z $'\C-u'
  sleep 0.3
  while zpty -r -t z chunk; do :; done
}
sleep 1
while zpty -r -t z chunk; do :; done
tab 'regrapht gr' 'regrapht graph'
tab 'regrapht optimize --bu' 'regrapht optimize --budget'
tab 'regrapht report --format h' 'regrapht report --format html'
zpty -d z
EOS
  timeout 120 zsh "$T/tty.zsh" "$T/fpath" "$(dirname "$BIN")" > "$T/tty.out" 2>&1 || true
  for want in "regrapht graph" "regrapht optimize --budget" "regrapht report --format html"; do
    grep -q -- "$want" "$T/tty.out" || { echo "FAIL: interactive zsh: no '$want' after <TAB>:"; cat "$T/tty.out"; exit 1; }
  done
fi
echo "completion_test ($SHELL_NAME): ok"
