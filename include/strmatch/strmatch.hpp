// strmatch: umbrella header of the public API.
#pragma once

#include "strmatch/approx.hpp"
#include "strmatch/common_substring.hpp"
#include "strmatch/cuda.hpp"
#include "strmatch/env.hpp"
#include "strmatch/exact.hpp"
#include "strmatch/io.hpp"
#include "strmatch/multi.hpp"
#include "strmatch/sequence.hpp"
#include "strmatch/types.hpp"
