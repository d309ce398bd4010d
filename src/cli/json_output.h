// --json, the one spelling of "print this command's result as JSON": every
// command that prints a result accepts it (`--format` stays where it chooses
// among file formats). With --json the command writes exactly one JSON
// document to stdout; every other line it prints (progress, human summaries,
// notes) goes to stderr meanwhile, so `regrapht X --json | jq` always parses.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "core/json_util.h"

namespace regrapht::cli {

// Adds `--json` to `sub`; `what` names the result ("the verdict", ...).
CLI::Option* AddJsonFlag(CLI::App* sub, bool* json, const std::string& what);

// Called by main once the command line is parsed and --json was given:
// from here on stdout (fd 1, children included) reaches stderr, and only
// EmitJson writes to the real stdout.
void BeginJsonOutput();

// Writes one document and a newline to the real stdout (the process's
// stdout when BeginJsonOutput was not called).
void EmitJson(const Json& doc);
void EmitJson(const OrderedJson& doc);
// `text` must already be one JSON document (e.g. a report rendered as JSON).
void EmitJsonText(const std::string& text);

}  // namespace regrapht::cli
