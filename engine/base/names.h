/* dtype names beyond the public tlc_dtype_parse (semi-private). All use the
 * one table, tlc_dtype_names() in tlcost/plugin.h. */
#ifndef TLC_ENGINE_NAMES_H
#define TLC_ENGINE_NAMES_H

#include <stddef.h>
#include "tlcost/tlcost.h"

/** tlc_dtype_parse that also accepts a "torch." prefix ("torch.float32"). */
tlc_dtype tlc_dtype__parse_torch(const char *name);
/** dtype of a C++ scalar type name as the PyTorch profiler writes it
 *  ("float", "c10::BFloat16", "long int"); OTHER when unknown or NULL. */
tlc_dtype tlc_dtype__parse_cpp(const char *name);
/** The dtype with a device peak (tlc_peak_dtype_of) that a tensor's dtype
 *  name spells, as the reports read it: its first token (after spaces and
 *  colons; characters [A-Za-z0-9_:<>]), then the token after each ']' in
 *  it, the first with a peak; full names, short forms (f32, bf16, fp16,
 *  half, f8e4m3, ...) and Kineto's (c10::BFloat16, Half, Float8_e4m3fn,
 *  Float8_e4m3fnuz, complex<float>, ...). TLC_DTYPE_NONE when none or NULL. */
tlc_dtype tlc_dtype__peak_of_name(const char *name);

/** The length of name[0..len) without an instance counter "_<digits>" at
 *  its end (the '_' kept): "RMSNorm_12" gives 8 ("RMSNorm_"); len when the
 *  name does not end in one. SGLang's wrapped launchers
 *  (sglang_profiler::<module>_<function>_<counter>) and module instance
 *  names carry such counters. */
size_t tlc_name__counter_stem(const char *name, size_t len);

#endif
