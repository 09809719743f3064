#include "secretstore.h"
