# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Writes a C source file that holds the bytes of INPUT as a NUL-terminated
# array named SYMBOL, so the library carries its IRDL text and needs no file
# at run time. Run as: cmake -DINPUT=.. -DOUTPUT=.. -DSYMBOL=.. -P embed_text.cmake
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hex_len)
math(EXPR byte_count "${hex_len} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n  " bytes "${bytes}")
file(WRITE "${OUTPUT}"
  "/* Generated from ${INPUT} by cmake/embed_text.cmake. Do not edit. */\n"
  "#include <stddef.h>\n"
  "const char ${SYMBOL}[] = {\n  ${bytes}0x00};\n"
  "const size_t ${SYMBOL}_len = ${byte_count};\n")
