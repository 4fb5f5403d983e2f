sonde script: err.unknown_cast.d:1:14: unknown type 'struct no_such_struct': no such struct in the kernel's BTF
