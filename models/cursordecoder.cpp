#include "cursordecoder.h"
