/* only "#pragma D option" is known */
#pragma D nonsense
BEGIN { exit(0); }
