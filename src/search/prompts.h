// PromptLibrary is public API: include/regrapht/prompts.h.
#pragma once

#include "core/fs.h"
#include "core/template.h"  // RenderTemplate
#include "regrapht/prompts.h"
