#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Prints the SM a launcher's embedded cubin was built for (its ELF
header's e_flags, byte 49: 90 for sm_90a, 100 for sm_100a).

Usage: cubin_arch.py LAUNCHER.c"""
import re
import sys

text = open(sys.argv[1]).read()
body = re.search(r"cubin\[\d+\][^{]*\{([^}]*)\}", text).group(1)
data = [int(x, 0) for x in body.split(",") if x.strip()]
print(data[49])
