sonde script: err.printf_count.d:1:9: printf() format has 2 conversions but 1 argument follows
