# cmake -DINPUT=file -DOUTPUT=file.cc -DSYMBOL=name -DNAMESPACE=ns -P EmbedText.cmake
# Writes a .cc defining `const char SYMBOL[]` with INPUT's text.
file(READ "${INPUT}" CONTENT)
set(DELIM "RGEMBED")
file(WRITE "${OUTPUT}" "// Generated from ${INPUT}. Do not edit.\nnamespace ${NAMESPACE} {\nextern const char ${SYMBOL}[];\nconst char ${SYMBOL}[] = R\"${DELIM}(${CONTENT})${DELIM}\";\n}\n")
