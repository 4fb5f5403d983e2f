sonde script: err.cpp_directive.d:2:1: '#if 0': C preprocessor directives are not supported (sonde script has no -C)
