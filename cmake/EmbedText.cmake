# cmake -DINPUT=file -DOUTPUT=file.cc -DSYMBOL=name -DNAMESPACE=ns [-DINCLUDE_ROOT=dir] -P EmbedText.cmake
# Writes a .cc defining `const char SYMBOL[]` with INPUT's text. A line
#   #include "path"  // embed: inline
# is replaced by the text of INCLUDE_ROOT/path (its `#pragma once` dropped),
# so a header compiled elsewhere with nothing beside it (the test driver's
# rg_driver.h) can share a file with the library.
file(READ "${INPUT}" CONTENT)
string(REGEX MATCHALL "#include \"[^\"]+\"  // embed: inline\n" INLINED "${CONTENT}")
foreach(line IN LISTS INLINED)
  string(REGEX REPLACE "#include \"([^\"]+)\".*" "\\1" rel "${line}")
  if(NOT INCLUDE_ROOT OR NOT EXISTS "${INCLUDE_ROOT}/${rel}")
    message(FATAL_ERROR "${INPUT}: cannot inline ${rel} (INCLUDE_ROOT=${INCLUDE_ROOT})")
  endif()
  file(READ "${INCLUDE_ROOT}/${rel}" text)
  string(REPLACE "#pragma once\n" "" text "${text}")
  string(REPLACE "${line}" "// ---- inlined from ${rel} by the build\n${text}// ---- end of ${rel}\n" CONTENT "${CONTENT}")
endforeach()
set(DELIM "RGEMBED")
file(WRITE "${OUTPUT}" "// Generated from ${INPUT}. Do not edit.\nnamespace ${NAMESPACE} {\nextern const char ${SYMBOL}[];\nconst char ${SYMBOL}[] = R\"${DELIM}(${CONTENT})${DELIM}\";\n}\n")
