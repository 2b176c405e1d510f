/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* kernel_module.h: the generated launcher a GPU harness is built against.
 * The harness is compiled with -DMOD=<module name> -DKERN=<kernel name>
 * and -I<dir of MOD.h>; this includes MOD.h and names its functions. */
#ifndef WS_KERNEL_MODULE_H
#define WS_KERNEL_MODULE_H

#define STR2(x) #x
#define STR(x) STR2(x)
#define CAT4(a, b, c, d) a##b##c##d
#define XCAT4(a, b, c, d) CAT4(a, b, c, d)
#define CAT2(a, b) a##b
#define XCAT2(a, b) CAT2(a, b)
#include STR(MOD.h)

#define LAUNCH XCAT4(MOD, _, KERN, _launch)
#define LOAD XCAT2(MOD, _load)
#define MODULE_T XCAT2(MOD, _module)

#endif
