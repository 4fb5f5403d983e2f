sonde script: err.escape_unknown.d:4:11: invalid escape '\q': use \n \t \r \a \b \f \v \\ \" \' \? \NNN (octal) or \xHH
