#include "jsontreemodel.h"
