# Writes OUT: the contents of IN as a C++ raw string literal with delimiter DELIM.
file(READ ${IN} text)
file(WRITE ${OUT}.tmp "R\"${DELIM}(${text})${DELIM}\"\n")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
