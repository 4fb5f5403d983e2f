sonde script: err.pragma_option.d:3:1: unknown option 'foo': use strsize=, bufsize=, aggsize=, dynvarsize=, nspec=
