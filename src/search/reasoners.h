// Factories of the search methods, one file each (NewReasoner dispatches).
#pragma once

#include <memory>

#include "regrapht/search.h"

namespace regrapht::search {

std::unique_ptr<Reasoner> NewMcgs(const SearchOptions& options);           // mcgs.cc
std::unique_ptr<Reasoner> NewStandard(const SearchOptions& options);       // baselines.cc
std::unique_ptr<Reasoner> NewCot(const SearchOptions& options);            // baselines.cc
std::unique_ptr<Reasoner> NewRag(const SearchOptions& options);            // baselines.cc
std::unique_ptr<Reasoner> NewBestOfN(const SearchOptions& options);        // baselines.cc
std::unique_ptr<Reasoner> NewGraphWalk(const SearchOptions& options);      // baselines.cc
std::unique_ptr<Reasoner> NewRethinkMcts(const SearchOptions& options);    // action_mcts.cc
std::unique_ptr<Reasoner> NewMctsRag(const SearchOptions& options);        // action_mcts.cc
std::unique_ptr<Reasoner> NewRules(const SearchOptions& options);          // rules.cc

}  // namespace regrapht::search
