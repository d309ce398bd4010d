# cmake -DFILES=a,b -DOUTPUT=x.cc -DSYMBOL=name -DNAMESPACE=ns -P EmbedFiles.cmake
# Writes a table `const EmbeddedFile SYMBOL[]` of {file name, contents}, ended by {nullptr, nullptr}.
set(BODY "// Generated. Do not edit.\nnamespace ${NAMESPACE} {\nstruct EmbeddedFile { const char* name; const char* text; };\nextern const EmbeddedFile ${SYMBOL}[];\nconst EmbeddedFile ${SYMBOL}[] = {\n")
string(REPLACE "," ";" FILE_LIST "${FILES}")
foreach(F ${FILE_LIST})
  file(READ "${F}" CONTENT)
  get_filename_component(N "${F}" NAME)
  string(APPEND BODY "  {\"${N}\", R\"RGEMBED(${CONTENT})RGEMBED\"},\n")
endforeach()
string(APPEND BODY "  {nullptr, nullptr}};\n}\n")
file(WRITE "${OUTPUT}" "${BODY}")
