line one
${