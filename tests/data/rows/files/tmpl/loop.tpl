%{ for x in items ~}
- ${x}
%{ endfor ~}
