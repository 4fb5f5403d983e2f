/* SPDX-License-Identifier: GPL-2.0 */
/* Lexer for the sonde language (D syntax). Tokens carry their line:column
 * so every later diagnostic can point into the script. */
#ifndef SONDE_LANG_LEX_H
#define SONDE_LANG_LEX_H

#include <stdint.h>

enum tok {
	T_EOF = 0,
	T_IDENT, /* also $target after expansion, keywords are separate */
	T_NUM,
	T_STR,
	T_AGG,	 /* @name or bare @ */
	T_PROBE, /* a probe description, lexed in probe context */
	T_LPAREN,
	T_RPAREN,
	T_LBRACE,
	T_RBRACE,
	T_LBRACK,
	T_RBRACK,
	T_SEMI,
	T_COMMA,
	T_DOT,
	T_ARROW,
	T_QUEST,
	T_COLON,
	T_PLUS,
	T_MINUS,
	T_STAR,
	T_SLASH,
	T_PERCENT,
	T_AMP,
	T_PIPE,
	T_CARET,
	T_TILDE,
	T_NOT,
	T_LT,
	T_GT,
	T_LE,
	T_GE,
	T_EQ,
	T_NE,
	T_LAND,
	T_LOR,
	T_LXOR,
	T_SHL,
	T_SHR,
	T_ASSIGN,
	T_ADDEQ,
	T_SUBEQ,
	T_MULEQ,
	T_DIVEQ,
	T_MODEQ,
	T_ANDEQ,
	T_OREQ,
	T_XOREQ,
	T_SHLEQ,
	T_SHREQ,
	T_INC,
	T_DEC,
	/* keywords */
	T_IF,
	T_ELSE,
	T_SIZEOF,
	T_STRINGOF,
	T_SELF,
	T_THIS,
	T_STRUCT,
	T_UNSIGNED,
	T_SIGNED,
};

struct loc {
	int line, col;
};

struct token {
	enum tok t;
	struct loc loc;
	char *s;  /* identifier, string or probe text (owned by lexer) */
	int slen; /* string length (strings may hold NULs) */
	uint64_t num;
	int num_unsigned;
};

struct lexer {
	const char *src, *p, *end;
	int line;
	const char *line_start;
	int argc; /* macro arguments $1..$argc */
	char *const *argv;
	long target;	  /* $target, -1 when unset */
	char err[256];	  /* first error, "line:col: message" */
	struct token cur; /* lookahead */
	char **strs;	  /* every string handed out, freed at the end */
	int nstrs, capstrs;
};

void lex_init(struct lexer *lx, const char *src, int argc, char *const *argv, long target);
void lex_free(struct lexer *lx);
/* Advances lx->cur. In probe context a probe description is one token. */
void lex_next(struct lexer *lx, int probe_ctx);
/* Stores "line:col: msg" as the first error (later ones are dropped). */
void lex_error(struct lexer *lx, struct loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const char *tok_name(enum tok t);
char *lex_strdup(struct lexer *lx, const char *s, int len);

#endif
