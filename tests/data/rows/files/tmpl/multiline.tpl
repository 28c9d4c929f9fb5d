<<
%{ for k, v in xs ~}
  ${k} = ${v}
%{ endfor ~}
>>
