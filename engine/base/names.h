/* dtype names beyond the public tlc_dtype_parse (semi-private). All use the
 * one table, tlc_dtype_names() in tlcost/plugin.h. */
#ifndef TLC_ENGINE_NAMES_H
#define TLC_ENGINE_NAMES_H

#include "tlcost/tlcost.h"

/** tlc_dtype_parse that also accepts a "torch." prefix ("torch.float32"). */
tlc_dtype tlc_dtype__parse_torch(const char *name);
/** dtype of a C++ scalar type name as the PyTorch profiler writes it
 *  ("float", "c10::BFloat16", "long int"); OTHER when unknown or NULL. */
tlc_dtype tlc_dtype__parse_cpp(const char *name);

#endif
